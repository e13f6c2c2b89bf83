import type { Knex, Logger } from '@platform/service-kit';

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
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw('select pg_try_advisory_xact_lock(?) as locked', [WEBHOOK_RETENTION_LOCK]);
    if (!rows[0].locked) return { ran: false, reason: 'another replica is running it' };
    const deleted = await trx('payment_webhooks')
      .whereNotNull('body')
      .andWhere('received_at', '<', trx.raw('now() - make_interval(days => ?)', [retentionDays]))
      .update({ body: null });
    return { ran: true, deleted_bodies: deleted };
  });
}

/** Runs the retention job at start-up and then hourly in the server process; `stop` waits for a run in progress. */
export function scheduleWebhookBodyRetention(db: Knex, retentionDays: number, logger: Logger, everyMs = EVERY_HOUR_MS) {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = deleteExpiredWebhookBodies(db, retentionDays)
      .then((result) => {
        if (result.ran && result.deleted_bodies > 0) logger.info({ deleted_bodies: result.deleted_bodies, retention_days: retentionDays }, 'expired payment-webhook bodies deleted');
      })
      .catch((err: unknown) => logger.error({ err }, 'payment-webhook retention job failed'));
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  run();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
