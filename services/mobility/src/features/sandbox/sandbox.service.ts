import { ApiError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';
import type { PartnerAccount } from '../api-keys';
import type { DeliveryLifecycle, DeliveryStatus } from '../deliveries';
import type { JobOutcome, JobRecord } from '../jobs';
import type { RideLifecycle } from '../rides';
import { expireIdleSandboxJobs } from './sandbox-expiry';
import type { SandboxExpiryRepository } from './sandbox-expiry.repository';
import { placeCourier } from './sandbox-courier';
import { DELIVERY_SANDBOX_MOVES, RIDE_SANDBOX_MOVES, sandboxPath, sandboxTargets, type SandboxMove } from './sandbox-moves';

/** What the sandbox needs of a job's life cycle: the same lock, status change and end every other move goes through. */
interface MovableJobs<Row, Action, Change, View> {
  lock(trx: Knex.Transaction, lookup: { id: string; partnerId: string; livemode: boolean }): Promise<Row>;
  changeStatus(trx: Knex.Transaction, row: Row, action: Action, extra: Change, telemetry: null): Promise<View>;
  endJob(trx: Knex.Transaction, row: Row, action: Action, extra: Change): Promise<JobOutcome<View>>;
  commit(work: (trx: Knex.Transaction) => Promise<JobOutcome<View>>): Promise<View>;
  view(conn: Knex, row: Row, telemetry: null): Promise<View>;
}

/** A change of the sandbox's own after the moves (the sandbox courier's place on the route); `to` may then be the status the job is in. */
type SandboxPlacement<Row> = (trx: Knex.Transaction, row: Row) => Promise<void>;

/** 409 `sandbox_transition_not_allowed`, naming the job's status and every status it can still be moved to. */
function notReachable(kind: 'ride' | 'delivery', current: string, target: string, allowed: string[]): ApiError {
  const options = allowed.length ? `it can be moved to ${allowed.join(', ')}` : 'it is in a final status';
  return new ApiError(409, 'sandbox_transition_not_allowed', `Cannot move a ${kind} that is ${current} to ${target}; ${options}`, {
    current_status: current,
    allowed_targets: allowed,
  });
}

/**
 * Moves a test-mode job to `to` one transition at a time, each through the job's own life cycle (so each fires its
 * usual webhook event, in order, with `livemode: false`), all in one transaction: the job ends in `to` or stays as it
 * was. Only the key's own test jobs are found; a live job is a 404 like an unknown one.
 */
function advancer<Row extends JobRecord<Status>, Status extends string, Action, Change, View>(
  kind: 'ride' | 'delivery',
  jobs: MovableJobs<Row, Action, Change, View>,
  moves: readonly SandboxMove<Status, Action, Change>[],
) {
  return async (account: PartnerAccount, id: string, to: Status, place?: SandboxPlacement<Row>): Promise<View> => {
    const lookup = { id, partnerId: account.partnerId, livemode: false };
    return jobs.commit(async (trx) => {
      let row = await jobs.lock(trx, lookup);
      const path = place && row.status === to ? [] : sandboxPath(moves, row.status, to);
      if (!path) throw notReachable(kind, row.status, to, sandboxTargets(moves, row.status));
      const outcome: JobOutcome<View> = { view: undefined as View, freed: [] };
      for (const move of path) {
        if (move.ends) {
          const ended = await jobs.endJob(trx, row, move.action, move.change(trx));
          outcome.view = ended.view;
          outcome.freed.push(...ended.freed);
        } else {
          // The sandbox's stand-in driver and courier never report a position: no Redis read under the lock.
          outcome.view = await jobs.changeStatus(trx, row, move.action, move.change(trx), null);
        }
        row = await jobs.lock(trx, lookup); // the row as this move left it, for the next one
      }
      if (place) {
        await place(trx, row);
        outcome.view = await jobs.view(trx, await jobs.lock(trx, lookup), null);
      }
      return outcome;
    });
  };
}

export interface SandboxServiceDeps {
  idleJobs: SandboxExpiryRepository;
  rides: RideLifecycle;
  deliveries: DeliveryLifecycle;
}

/** `POST /api/v1/sandbox/{rides|deliveries}/{id}/advance`: the sandbox stands in for the driver, courier and dispatcher. */
export function createSandboxService({ idleJobs, rides, deliveries }: SandboxServiceDeps) {
  const advanceDelivery = advancer('delivery', deliveries, DELIVERY_SANDBOX_MOVES);
  return {
    advanceRide: advancer('ride', rides, RIDE_SANDBOX_MOVES),
    advanceDelivery: (account: PartnerAccount, id: string, to: DeliveryStatus, courierProgress?: number) =>
      advanceDelivery(account, id, to, courierProgress === undefined ? undefined : placeCourier(courierProgress)),
    /** Ends the test jobs nobody moved for `idleSeconds` (the worker's sweep, `SANDBOX_JOB_TTL_S`). */
    expireIdle: (idleSeconds: number) => expireIdleSandboxJobs({ idleJobs, rides, deliveries }, idleSeconds),
  };
}

export type SandboxService = ReturnType<typeof createSandboxService>;
