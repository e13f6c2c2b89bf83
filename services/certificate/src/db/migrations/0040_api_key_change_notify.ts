import type { Knex } from 'knex';

/**
 * Every change to a key that can refuse a token it accepted (status, tokens, grace period, expiry) or a deleted
 * key notifies `certificate_api_keys_changed` with the key's id when the transaction commits. Each API process LISTENs and
 * drops the key from its authentication cache, so the change holds at the next request in every process.
 * `last_used_at` writes notify nobody.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create or replace function notify_api_key_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('certificate_api_keys_changed', old.id);
      return null;
    end
    $$`);
  await db.raw(`
    create trigger api_keys_change_notify
    after update of status, token_hash, previous_token_hash, previous_token_expires_at, expires_at or delete on api_keys
    for each row execute function notify_api_key_change()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop trigger if exists api_keys_change_notify on api_keys');
  await db.raw('drop function if exists notify_api_key_change()');
}
