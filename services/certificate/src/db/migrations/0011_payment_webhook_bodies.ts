import type { Knex } from 'knex';

/**
 * Payment-webhook receipts keep their size and SHA-256 always, their body only when the call was authenticated (and
 * then only until the retention job removes it). Existing receipts get their size and hash; the bodies of calls that
 * failed authentication are deleted.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payment_webhooks', (t) => {
    t.binary('body').nullable().alter();
    t.integer('body_size');
    t.text('body_sha256');
  });
  await db.raw("update payment_webhooks set body_size = length(body), body_sha256 = encode(sha256(body), 'hex')");
  await db.raw("update payment_webhooks set body = null where outcome in ('rejected_signature', 'not_configured', 'received')");
  await db.raw('alter table payment_webhooks alter column body_size set not null, alter column body_sha256 set not null');
  // The retention job looks for kept bodies by age.
  await db.raw('create index payment_webhooks_kept_bodies on payment_webhooks (received_at) where body is not null');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index payment_webhooks_kept_bodies');
  await db.raw("update payment_webhooks set body = '' where body is null");
  await db.schema.alterTable('payment_webhooks', (t) => {
    t.dropColumn('body_size');
    t.dropColumn('body_sha256');
    t.binary('body').notNullable().alter();
  });
}
