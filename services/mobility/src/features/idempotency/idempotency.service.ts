import { createHash } from 'node:crypto';
import { ConflictError, ValidationError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';
import { IDEMPOTENCY_KEY_MESSAGE, idempotencyKeySchema } from './idempotency.schema';

export interface IdempotentAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

const WINDOW_HOURS = 24;

/** JSON with sorted object keys, so the same body sent with keys in another order counts as the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The request's `Idempotency-Key` (undefined without one), for an operation whose entry does not declare the header; 422 when malformed. */
export function validIdempotencyKey(header: unknown): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !idempotencyKeySchema.safeParse(header).success) {
    throw new ValidationError([{ path: 'Idempotency-Key', message: IDEMPOTENCY_KEY_MESSAGE }]);
  }
  return header;
}

/**
 * Runs `work` once per (partner, scope, key) within 24 h. The key row is inserted in the same transaction as the work,
 * so a concurrent duplicate waits on the unique key and then replays the stored answer; another body is a 409.
 */
export async function runIdempotent<T>(
  db: Knex,
  request: { partnerId: string; scope: string; key: string; body: unknown },
  work: (trx: Knex.Transaction) => Promise<{ status: number; body: T }>,
): Promise<IdempotentAnswer<T>> {
  const requestHash = createHash('sha256').update(canonicalJson(request.body)).digest('hex');
  const id = { partner_id: request.partnerId, scope: request.scope, key: request.key };
  return db.transaction(async (trx) => {
    await trx('idempotency_keys').where(id).andWhere('created_at', '<', trx.raw(`now() - interval '${WINDOW_HOURS} hours'`)).delete();
    const inserted = await trx('idempotency_keys').insert({ ...id, request_hash: requestHash }).onConflict(['partner_id', 'scope', 'key']).ignore().returning('key');
    if (inserted.length === 0) {
      const stored = await trx('idempotency_keys').where(id).first();
      if (stored.request_hash !== requestHash) {
        throw new ConflictError('Idempotency-Key was already used with a different request body', 'idempotency_key_reused');
      }
      return { status: stored.response_status, body: stored.response_body as T, replayed: true };
    }
    const answer = await work(trx);
    await trx('idempotency_keys').where(id).update({ response_status: answer.status, response_body: JSON.stringify(answer.body) });
    return { ...answer, replayed: false };
  });
}
