import { inTransactionHoldingLock, type Knex } from '@platform/service-kit/db';
import { runPeriodically } from '@platform/service-kit/shutdown';
import type { Logger } from '@platform/service-kit/logger';

/** The Postgres advisory lock that lets one worker at a time run the event retention job ("mobi" + 1). */
export const EVENT_RETENTION_LOCK = 0x6d6f6269_01;
export const EVENT_RETENTION_DAYS = 30;
const EVERY_HOUR_MS = 60 * 60 * 1000;

export type EventRetentionRun =
  | { ran: true; deleted_events: number; deleted_messages: number; deleted_attempts: number }
  | { ran: false; reason: 'another worker is running it' };

/**
 * Deletes events older than `retentionDays` with their messages and attempt logs, and attempt-log rows older than that
 * of younger messages. An event the relay has not dispatched yet is kept whatever its age. Runs only where it wins the
 * advisory lock (held for its transaction), so workers never run it at the same time.
 */
export async function deleteExpiredEvents(db: Knex, retentionDays = EVENT_RETENTION_DAYS): Promise<EventRetentionRun> {
  const run = await inTransactionHoldingLock(db, EVENT_RETENTION_LOCK, async (trx) => {
    const cutoff = trx.raw('now() - make_interval(days => ?)', [retentionDays]);
    const expiredEvents = trx('outbox_events').select('id').where('created_at', '<', cutoff).whereNotNull('dispatched_at');
    const deletedAttempts = await trx('webhook_attempts').where('created_at', '<', cutoff).delete();
    const deletedMessages = await trx('webhook_deliveries').whereIn('event_id', expiredEvents).delete(); // their attempts go with them
    const deletedEvents = await trx('outbox_events').where('created_at', '<', cutoff).whereNotNull('dispatched_at').delete();
    return { ran: true, deleted_events: deletedEvents, deleted_messages: deletedMessages, deleted_attempts: deletedAttempts } as const;
  });
  return run ?? { ran: false, reason: 'another worker is running it' };
}

/** Runs the retention job at start-up and then hourly in the worker; `stop` waits for a run in progress. */
export function scheduleEventRetention(db: Knex, logger: Logger, everyMs = EVERY_HOUR_MS, retentionDays = EVENT_RETENTION_DAYS) {
  return runPeriodically(
    () =>
      deleteExpiredEvents(db, retentionDays)
        .then((result) => {
          if (result.ran && result.deleted_events + result.deleted_attempts > 0) logger.info({ ...result, retention_days: retentionDays }, 'expired webhook events and attempt logs deleted');
        })
        .catch((err: unknown) => logger.error({ err }, 'webhook event retention job failed')),
    everyMs,
  );
}
