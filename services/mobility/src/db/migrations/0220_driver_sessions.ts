import type { Knex } from 'knex';

/**
 * Driver sign-in: one-time activation codes an operator hands to a driver, the sessions a code opens, and the
 * rotating refresh tokens of each session. Codes and refresh tokens are stored only as SHA-256 hashes.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('driver_activation_codes', (t) => {
    t.text('id').primary(); // dac_…
    t.text('driver_id').notNullable().references('id').inTable('drivers').onDelete('CASCADE');
    t.text('organization_id').notNullable();
    t.text('code_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    /** Set when a fresher code for the same driver replaced this one before it was used. */
    t.timestamp('superseded_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['driver_id', 'created_at'], 'driver_activation_codes_driver');
  });
  await db.schema.createTable('driver_sessions', (t) => {
    t.text('id').primary(); // dss_…
    t.text('driver_id').notNullable().references('id').inTable('drivers').onDelete('CASCADE');
    t.text('activation_code_id').notNullable();
    t.timestamp('revoked_at', { useTz: true });
    /** `signed_out`, `refresh_token_reused`, `new_activation_code`, `signed_in_elsewhere`. */
    t.text('revoked_reason');
    t.timestamp('last_refreshed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['driver_id'], 'driver_sessions_driver');
  });
  await db.schema.createTable('driver_refresh_tokens', (t) => {
    t.text('token_hash').primary();
    t.text('session_id').notNullable().references('id').inTable('driver_sessions').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    /** Set when this token was exchanged for the next one; presenting it again revokes the session. */
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['session_id'], 'driver_refresh_tokens_session');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('driver_refresh_tokens');
  await db.schema.dropTable('driver_sessions');
  await db.schema.dropTable('driver_activation_codes');
}
