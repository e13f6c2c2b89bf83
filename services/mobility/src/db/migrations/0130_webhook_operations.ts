import type { Knex } from 'knex';

/**
 * Webhook operations: a rotated-away secret that still signs for 24 h, when an endpoint's attempts started failing
 * without a success since (5 days of that disables it), and the indexes the events list and the retention job read.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_endpoints', (t) => {
    t.text('previous_secret'); // encrypted like `secret`; signs beside it until previous_secret_expires_at
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('failing_since', { useTz: true }); // first failed attempt after the last success; null when healthy
  });
  await db.raw('create index outbox_events_partner_created on outbox_events (partner_id, created_at desc, id desc)');
  await db.raw('create index outbox_events_created on outbox_events (created_at)');
  await db.raw('create index webhook_attempts_created on webhook_attempts (created_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists webhook_attempts_created');
  await db.raw('drop index if exists outbox_events_created');
  await db.raw('drop index if exists outbox_events_partner_created');
  await db.schema.alterTable('webhook_endpoints', (t) => {
    t.dropColumn('previous_secret');
    t.dropColumn('previous_secret_expires_at');
    t.dropColumn('failing_since');
  });
}
