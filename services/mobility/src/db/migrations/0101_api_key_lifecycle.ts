import type { Knex } from 'knex';

/** The shared API-key package's columns: last use, expiry, update time and the previous token's grace period. */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.text('previous_token_hash'); // SHA-256 of the token replaced by the last rotation, while its grace period lasts
    t.timestamp('previous_token_expires_at', { useTz: true });
    t.index(['previous_token_hash'], 'api_keys_previous_token_hash');
    t.index(['partner_id', 'created_at'], 'api_keys_partner_created_at');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.dropIndex(['partner_id', 'created_at'], 'api_keys_partner_created_at');
    t.dropIndex(['previous_token_hash'], 'api_keys_previous_token_hash');
    t.dropColumns('updated_at', 'last_used_at', 'expires_at', 'previous_token_hash', 'previous_token_expires_at');
  });
}
