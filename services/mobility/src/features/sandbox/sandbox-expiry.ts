import { runPeriodically } from '@platform/service-kit/shutdown';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { DeliveryAction, DeliveryChange, DeliveryStatus } from '../deliveries';
import type { JobOutcome, JobRecord } from '../jobs';
import type { RideAction, RideChange, RideStatus } from '../rides';
import type { SandboxExpiryRepository } from './sandbox-expiry.repository';

/** The failure reason of a picked-up test delivery the sweep ended (a picked-up delivery can no longer be cancelled). */
export const SANDBOX_EXPIRED_REASON = 'sandbox_expired';
/** Jobs one sweep ends per kind; the next sweep takes the rest. */
const SWEEP_BATCH = 500;
const EVERY_FIVE_MINUTES_MS = 5 * 60 * 1000;

/** How the sweep ends a test job in each open status: the job's own state-machine action and the columns it sets. */
type ExpiryMoves<Status extends string, Action, Change> = Partial<Record<Status, { action: Action; change: Change }>>;

/** Rides: cancelled by the system from any open status (`ride.cancelled`, `cancelled_by: "system"`). */
export const RIDE_EXPIRY_MOVES: ExpiryMoves<RideStatus, RideAction, RideChange> = {
  pending: { action: 'cancel', change: { cancelled_by: 'system' } },
  accepted: { action: 'cancel', change: { cancelled_by: 'system' } },
  arrived: { action: 'cancel', change: { cancelled_by: 'system' } },
  in_progress: { action: 'cancel', change: { cancelled_by: 'system' } },
};

/** Deliveries: cancelled by the system before pick-up (`delivery.cancelled`); failed (`sandbox_expired`) after it. */
export const DELIVERY_EXPIRY_MOVES: ExpiryMoves<DeliveryStatus, DeliveryAction, DeliveryChange> = {
  pending: { action: 'cancel', change: { cancelled_by: 'system' } },
  courier_assigned: { action: 'cancel', change: { cancelled_by: 'system' } },
  picked_up: { action: 'fail', change: { failure_reason: SANDBOX_EXPIRED_REASON } },
};

/** What the sweep needs of a job's life cycle: the lock and the end every other move goes through. */
interface EndableJobs<Row, Action, Change, View> {
  lock(trx: Knex.Transaction, lookup: { id: string; partnerId: string; livemode: boolean }): Promise<Row>;
  endJob(trx: Knex.Transaction, row: Row, action: Action, extra: Change): Promise<JobOutcome<View>>;
  commit(work: (trx: Knex.Transaction) => Promise<JobOutcome<View>>): Promise<View>;
}

type IdleRow<Status extends string> = JobRecord<Status> & { updated_at: Date };

/**
 * Ends the idle test jobs of one kind, each in its own transaction through the job's life cycle (so each sends its usual
 * webhook event, `livemode: false`). The row is checked again under its lock: a job the sandbox moved meanwhile is left.
 */
async function expireKind<Row extends IdleRow<Status>, Status extends string, Action, Change, View>(
  idleJobs: SandboxExpiryRepository,
  table: 'rides' | 'deliveries',
  jobs: EndableJobs<Row, Action, Change, View>,
  moves: ExpiryMoves<Status, Action, Change>,
  idleSeconds: number,
): Promise<number> {
  let ended = 0;
  for (const job of await idleJobs.findIdleSandboxJobs(table, Object.keys(moves), idleSeconds, SWEEP_BATCH)) {
    const lookup = { id: job.id, partnerId: job.partner_id, livemode: false };
    await jobs.commit(async (trx) => {
      const row = await jobs.lock(trx, lookup);
      const move = moves[row.status];
      const { rows } = await trx.raw<{ rows: { idle: boolean }[] }>('select ?::timestamptz < now() - make_interval(secs => ?) as idle', [row.updated_at, idleSeconds]);
      if (!move || !rows[0]?.idle) return { view: undefined as View, freed: [] };
      ended += 1;
      return jobs.endJob(trx, row, move.action, move.change);
    });
  }
  return ended;
}

export interface SandboxExpiryDeps<RideRow, RideView, DeliveryRow, DeliveryView> {
  idleJobs: SandboxExpiryRepository;
  rides: EndableJobs<RideRow, RideAction, RideChange, RideView>;
  deliveries: EndableJobs<DeliveryRow, DeliveryAction, DeliveryChange, DeliveryView>;
}

/** Ends every test ride and delivery nobody moved for `idleSeconds`; answers how many of each it ended. */
export async function expireIdleSandboxJobs<RideRow extends IdleRow<RideStatus>, RideView, DeliveryRow extends IdleRow<DeliveryStatus>, DeliveryView>(
  { idleJobs, rides, deliveries }: SandboxExpiryDeps<RideRow, RideView, DeliveryRow, DeliveryView>,
  idleSeconds: number,
): Promise<{ rides: number; deliveries: number }> {
  return {
    rides: await expireKind(idleJobs, 'rides', rides, RIDE_EXPIRY_MOVES, idleSeconds),
    deliveries: await expireKind(idleJobs, 'deliveries', deliveries, DELIVERY_EXPIRY_MOVES, idleSeconds),
  };
}

/** The worker's sweep: at start-up, then every five minutes; `stop` waits for a run in progress. */
export function scheduleSandboxExpiry(expire: () => Promise<{ rides: number; deliveries: number }>, logger: Logger, everyMs = EVERY_FIVE_MINUTES_MS) {
  return runPeriodically(
    () =>
      expire()
        .then((ended) => {
          if (ended.rides + ended.deliveries > 0) logger.info(ended, 'idle test-mode jobs ended');
        })
        .catch((err: unknown) => logger.error({ err }, 'sandbox expiry sweep failed')),
    everyMs,
  );
}
