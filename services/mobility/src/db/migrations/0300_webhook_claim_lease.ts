import type { Knex } from 'knex';

/**
 * `webhook_deliveries.claimed_until`: the lease a worker takes on a delivery when it claims an attempt. While the lease
 * lasts no other job may claim the delivery, so a delivery held by two jobs (a batch job and a single one the sweep
 * added, or a batch job run again after a stall) is sent by one of them; recording the attempt ends the lease. A lease
 * that runs out (the worker died mid-request) lets the delivery be claimed again: at-least-once, as before.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.timestamp('claimed_until', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('claimed_until');
  });
}
