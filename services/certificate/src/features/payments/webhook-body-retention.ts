import { inTransactionHoldingLock, type Knex } from '@platform/service-kit/db';
import { runPeriodically } from '@platform/service-kit/shutdown';
import type { Logger } from '@platform/service-kit/logger';

/** The Postgres advisory lock that lets one replica at a time run the retention job ("cert" + 1). */
export const WEBHOOK_RETENTION_LOCK = 0x63657274_01;
const EVERY_HOUR_MS = 60 * 60 * 1000;

export type RetentionRun = { ran: true; deleted_bodies: number } | { ran: false; reason: 'another replica is running it' };

/**
 * Deletes the stored bodies of payment webhooks received more than `retentionDays` ago; the receipt (gateway,
 * outcome, reference, size, SHA-256, time) stays. Runs only where it wins the advisory lock, which is held for its
 * transaction, so replicas never run it at the same time.
 */
export async function deleteExpiredWebhookBodies(db: Knex, retentionDays: number): Promise<RetentionRun> {
  const run = await inTransactionHoldingLock(db, WEBHOOK_RETENTION_LOCK, async (trx) => {
    const deleted = await trx('payment_webhooks')
      .whereNotNull('body')
      .andWhere('received_at', '<', trx.raw('now() - make_interval(days => ?)', [retentionDays]))
      .update({ body: null });
    return { ran: true, deleted_bodies: deleted } as const;
  });
  return run ?? { ran: false, reason: 'another replica is running it' };
}

/** Runs the retention job at start-up and then hourly in the server process; `stop` waits for a run in progress. */
export function scheduleWebhookBodyRetention(db: Knex, retentionDays: number, logger: Logger, everyMs = EVERY_HOUR_MS) {
  return runPeriodically(
    () =>
      deleteExpiredWebhookBodies(db, retentionDays)
        .then((result) => {
          if (result.ran && result.deleted_bodies > 0) logger.info({ deleted_bodies: result.deleted_bodies, retention_days: retentionDays }, 'expired payment-webhook bodies deleted');
        })
        .catch((err: unknown) => logger.error({ err }, 'payment-webhook retention job failed')),
    everyMs,
  );
}
