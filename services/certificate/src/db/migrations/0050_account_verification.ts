import type { Knex } from 'knex';

/**
 * Accounts prove their email before they exist, free credits come once per verified account, organization
 * names can be verified by an operator, and the sign-in throttle slows (email, address) pairs down instead of locking
 * an email out. Accounts made before this are unverified until a password reset proves their email; their
 * organizations already had free credits, so they are marked as granted.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.timestamp('email_verified_at', { useTz: true });
    t.timestamp('free_credits_granted_at', { useTz: true });
  });
  await db.raw('update accounts set free_credits_granted_at = created_at');
  await db.schema.alterTable('organizations', (t) => {
    t.timestamp('name_verified_at', { useTz: true }); // set by `cli organizations verify <org>`
  });
  // Mailed secrets: a pending sign-up (its account is made when the link is used) or a password reset. Hashes only.
  await db.schema.createTable('email_tokens', (t) => {
    t.text('id').primary(); // etk_…
    t.text('purpose').notNullable();
    t.text('token_hash').notNullable().unique();
    t.text('email').notNullable();
    t.text('account_id').references('accounts.id').onDelete('CASCADE');
    t.jsonb('sign_up'); // name, password_hash, organization_name, invitation_token of a pending sign-up
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['account_id']);
    t.check("purpose in ('sign_up', 'password_reset')", [], 'email_tokens_purpose');
  });
  await db.schema.alterTable('sign_in_failures', (t) => {
    t.timestamp('last_failed_at', { useTz: true });
  });
  // The old per-email counters (`account:<email>`) are not read any more.
  await db('sign_in_failures').where('subject', 'like', 'account:%').delete();
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sign_in_failures', (t) => t.dropColumn('last_failed_at'));
  await db.schema.dropTable('email_tokens');
  await db.schema.alterTable('organizations', (t) => t.dropColumn('name_verified_at'));
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('free_credits_granted_at');
    t.dropColumn('email_verified_at');
  });
}
