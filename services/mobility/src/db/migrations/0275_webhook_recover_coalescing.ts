import type { Knex } from 'knex';

/**
 * Recover coalescing: when the endpoint's last recover ran (at most one a minute), and which messages a recover
 * queued (a recover is in progress while any of them is still pending).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_endpoints', (t) => {
    t.timestamp('last_recovered_at', { useTz: true });
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.timestamp('recovered_at', { useTz: true });
  });
  await db.raw("create index webhook_deliveries_recovering on webhook_deliveries (endpoint_id) where status = 'pending' and recovered_at is not null");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists webhook_deliveries_recovering');
  await db.schema.alterTable('webhook_deliveries', (t) => t.dropColumn('recovered_at'));
  await db.schema.alterTable('webhook_endpoints', (t) => t.dropColumn('last_recovered_at'));
}
