import type { Knex } from 'knex';

/** Organizations (with the credit balance), users (with their plan), API keys, certificates and the credit ledger. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organizations', (t) => {
    t.text('id').primary(); // the dashboard's organization id (JWT claim `org`)
    t.text('name').notNullable();
    t.integer('balance').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.check('balance >= 0', [], 'organizations_balance_not_negative');
  });
  await db.schema.createTable('users', (t) => {
    t.text('id').primary(); // JWT claim `sub`
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('plan').notNullable().defaultTo('free');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('api_keys', (t) => {
    t.text('id').primary(); // key_…
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('token_hash').notNullable().unique(); // SHA-256 of the token; the token itself is never stored
    t.text('token_hint').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.check("status in ('active', 'revoked')", [], 'api_keys_status');
    t.index(['organization_id', 'created_at']);
  });
  await db.schema.createTable('certificates', (t) => {
    t.text('id').primary(); // cert_…
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('verification_code').notNullable();
    t.text('certificate_number').notNullable();
    t.text('recipient_name').notNullable();
    t.text('program_title').notNullable();
    t.date('issue_date').notNullable();
    t.date('expires_on');
    t.text('status').notNullable().defaultTo('valid');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.unique(['organization_id', 'verification_code']);
    t.unique(['verification_code']);
    t.unique(['organization_id', 'certificate_number']);
    t.check("status in ('valid', 'revoked')", [], 'certificates_status');
  });
  await db.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id');
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.integer('delta').notNullable();
    t.text('reason').notNullable(); // free_plan_grant | certificate_issued | plan_upgrade
    t.text('reference'); // certificate id, payment reference, …
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['organization_id', 'created_at']);
  });
  // A grant for a payment or a signup happens once, whatever races.
  await db.raw(
    "create unique index credit_ledger_once on credit_ledger (organization_id, reason, reference) where reason in ('free_plan_grant', 'plan_upgrade')",
  );
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['credit_ledger', 'certificates', 'api_keys', 'users', 'organizations']) await db.schema.dropTable(table);
}
