import type { Knex } from 'knex';

/**
 * Dashboard accounts: people sign in with email and password and belong to organizations through
 * memberships. A membership's `account_id` is the `sub` of the admin tokens the service issues, so the existing
 * `users` rows (organization, sub) keep appearing on first sight. Refresh tokens, invitation tokens and sign-in
 * throttling counters live here too; tokens are stored only as SHA-256 hashes.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('accounts', (t) => {
    t.text('id').primary(); // acc_…
    t.text('email').notNullable();
    t.text('name').notNullable();
    t.text('password_hash').notNullable(); // scrypt$N$r$p$salt$hash
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw('create unique index accounts_email_unique on accounts (lower(email))');
  await db.schema.createTable('memberships', (t) => {
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['organization_id', 'account_id']);
    t.index(['account_id']);
    t.check("role in ('owner', 'member', 'operator')", [], 'memberships_role');
  });
  await db.schema.createTable('refresh_sessions', (t) => {
    t.text('id').primary(); // rs_…
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('family_id').notNullable(); // every rotation of one sign-in shares it; reuse revokes them all
    t.text('organization_id'); // the organization the session's access tokens name (null: no membership)
    t.text('token_hash').notNullable().unique(); // SHA-256 hex of the cookie's value
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['family_id']);
    t.index(['account_id', 'organization_id']);
  });
  await db.schema.createTable('invitations', (t) => {
    t.text('id').primary(); // inv_…
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.text('role').notNullable();
    t.text('email');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.text('used_by');
    t.index(['organization_id', 'created_at']);
    t.check("role in ('owner', 'member', 'operator')", [], 'invitations_role');
  });
  // Failed sign-ins per subject (`account:<email>` or `address:<ip>`) in a fixed window.
  await db.schema.createTable('sign_in_failures', (t) => {
    t.text('subject').primary();
    t.integer('failures').notNullable();
    t.timestamp('window_started_at', { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['sign_in_failures', 'invitations', 'refresh_sessions', 'memberships', 'accounts']) await db.schema.dropTable(table);
}
