import type { Knex } from 'knex';

/**
 * A rendered document depends on the certificate's status too (a revoked or expired one carries a band saying so), so
 * the cache key gains it: a revoke, or the expiry date passing, makes the next request render a new document.
 * The documents stored before are all of valid certificates' layout, hence the default.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('certificate_documents', (t) => {
    t.text('status').notNullable().defaultTo('valid');
    t.dropPrimary();
  });
  await db.schema.alterTable('certificate_documents', (t) => {
    t.primary(['certificate_id', 'template_version', 'status', 'format']);
    t.check("status in ('valid', 'revoked', 'expired')", [], 'certificate_documents_status');
  });
}

export async function down(db: Knex): Promise<void> {
  await db('certificate_documents').whereNot({ status: 'valid' }).delete();
  await db.schema.alterTable('certificate_documents', (t) => {
    t.dropChecks('certificate_documents_status');
    t.dropPrimary();
  });
  await db.schema.alterTable('certificate_documents', (t) => {
    t.dropColumn('status');
    t.primary(['certificate_id', 'template_version', 'format']);
  });
}
