import type { Knex } from 'knex';

/**
 * Outgoing webhooks: the partner's endpoints, one delivery per event × endpoint (the unique pair is what makes
 * relaying twice harmless) and one row per HTTP attempt, the partner-visible log.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_endpoints', (t) => {
    t.text('id').primary(); // whe_…
    t.text('partner_id').notNullable();
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    t.text('secret').notNullable(); // needed to sign every delivery; returned once, at creation
    t.text('status').notNullable().defaultTo('enabled');
    t.text('disabled_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['partner_id', 'created_at']);
  });
  await db.raw(`alter table webhook_endpoints add constraint webhook_endpoints_status check (status in ('enabled', 'disabled'))`);

  await db.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary(); // whd_…
    t.text('event_id').notNullable().references('id').inTable('outbox_events');
    t.text('endpoint_id').notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    t.text('partner_id').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0); // attempts started so far
    t.integer('max_attempts').notNullable(); // WEBHOOK_MAX_ATTEMPTS at creation; a manual retry adds one
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['event_id', 'endpoint_id']);
    t.index(['endpoint_id', 'created_at']);
  });
  await db.raw(`alter table webhook_deliveries add constraint webhook_deliveries_status check (status in ('pending', 'succeeded', 'failed'))`);
  await db.raw("create index webhook_deliveries_pending on webhook_deliveries (next_attempt_at) where status = 'pending'");

  await db.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.text('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.integer('status_code');
    t.integer('duration_ms').notNullable();
    t.text('error');
    t.text('response_body_excerpt'); // first 1 kB of the answer
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['delivery_id', 'attempt']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_attempts');
  await db.schema.dropTable('webhook_deliveries');
  await db.schema.dropTable('webhook_endpoints');
}
