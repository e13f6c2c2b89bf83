import type { Knex } from 'knex';

/**
 * Test mode: an API key is live (`ck_…`) or test mode (`ck_test_…`), and a certificate is live or a test certificate
 * (issued with `?mode=test`): no credit spent, never verified as valid, listed apart from live ones. A test
 * certificate's document carries a TEST band, so the stored documents' status may be `test` too. Everything stored
 * before is live, hence the defaults.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.boolean('livemode').notNullable().defaultTo(true);
  });
  await db.schema.alterTable('certificates', (t) => {
    t.boolean('livemode').notNullable().defaultTo(true);
    t.index(['organization_id', 'livemode', 'created_at', 'id'], 'certificates_mode_list');
  });
  await db.raw('alter table certificate_documents drop constraint certificate_documents_status');
  await db.raw("alter table certificate_documents add constraint certificate_documents_status check (status in ('valid', 'revoked', 'expired', 'test'))");
}

export async function down(db: Knex): Promise<void> {
  await db('certificate_documents').where({ status: 'test' }).delete();
  await db.raw('alter table certificate_documents drop constraint certificate_documents_status');
  await db.raw("alter table certificate_documents add constraint certificate_documents_status check (status in ('valid', 'revoked', 'expired'))");
  await db('certificates').where({ livemode: false }).delete();
  await db('api_keys').where({ livemode: false }).delete();
  await db.schema.alterTable('certificates', (t) => {
    t.dropIndex([], 'certificates_mode_list');
    t.dropColumn('livemode');
  });
  await db.schema.alterTable('api_keys', (t) => {
    t.dropColumn('livemode');
  });
}
