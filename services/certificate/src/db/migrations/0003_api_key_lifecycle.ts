import type { Knex } from 'knex';

/** The shared API-key package's columns: expiry, rotation time and the previous token's grace period. */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('rotated_at', { useTz: true });
    t.text('previous_token_hash'); // SHA-256 of the token replaced by the last rotation, while its grace period lasts
    t.timestamp('previous_token_expires_at', { useTz: true });
    t.index(['previous_token_hash'], 'api_keys_previous_token_hash');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.dropIndex(['previous_token_hash'], 'api_keys_previous_token_hash');
    t.dropColumns('expires_at', 'rotated_at', 'previous_token_hash', 'previous_token_expires_at');
  });
}
