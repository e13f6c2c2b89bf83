import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { DispatchJob, Dispatcher, JobKind } from '../dispatch';
import { runIdempotent } from '../idempotency';

export interface JobCreationDeps {
  db: Knex;
  dispatcher: Pick<Dispatcher, 'scheduleSearch' | 'firstSearch'>;
  logger: Logger;
}

export interface JobCreationRequest {
  kind: JobKind;
  partnerId: string;
  /** false: a test-mode job, created without any dispatch (the sandbox moves it). */
  livemode: boolean;
  /** The endpoint, as the idempotency scope (`POST /api/v1/rides`). */
  scope: string;
  idempotencyKey?: string;
  /** What a repeated key is compared on. */
  body: unknown;
  /** Where and whom the job searches: its first search looks for anybody in range before it locks anything. */
  search: Pick<DispatchJob, 'fleetKind' | 'tier' | 'pickup'>;
}

/**
 * Creates a pending job and starts its search (a test-mode job gets no search at all: nobody is ever offered it): the row and its dispatch timers in one transaction (with the
 * Idempotency-Key row when there is one), then a first offer after commit. A replay answers the stored first answer
 * and dispatches nothing.
 */
export async function createAndDispatch<View extends { id: string }>(
  { db, dispatcher, logger }: JobCreationDeps,
  request: JobCreationRequest,
  insert: (trx: Knex.Transaction) => Promise<View>,
): Promise<{ status: number; body: View; replayed: boolean }> {
  const create = async (trx: Knex.Transaction) => {
    const body = await insert(trx);
    if (request.livemode) await dispatcher.scheduleSearch({ kind: request.kind, id: body.id, partnerId: request.partnerId, ...request.search });
    return { status: 201, body };
  };
  // A test key's Idempotency-Keys are its own: the same key sent in live mode is another request.
  const scope = request.livemode ? request.scope : `${request.scope} (test mode)`;
  const answer = request.idempotencyKey
    ? await runIdempotent(db, { partnerId: request.partnerId, scope, key: request.idempotencyKey, body: request.body }, create)
    : { ...(await db.transaction(create)), replayed: false };
  if (!answer.replayed && request.livemode) {
    try {
      await dispatcher.firstSearch({ kind: request.kind, id: answer.body.id, partnerId: request.partnerId, ...request.search });
    } catch (err) {
      logger.warn({ err, kind: request.kind, id: answer.body.id }, 'first dispatch attempt failed; the retry timer will search again');
    }
  }
  return answer;
}
