import type { Knex } from 'knex';

/**
 * The message log as in Svix: each attempt keeps the headers it was sent with (signature included: it is not
 * a secret, it only proves the body) and the headers it was answered with (at most 50, each value cut at 512 characters).
 * The request body is the event's own body (`outbox_events.body`), the same for every attempt, so it is not copied.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_attempts', (t) => {
    t.jsonb('request_headers');
    t.jsonb('response_headers');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_attempts', (t) => {
    t.dropColumn('request_headers');
    t.dropColumn('response_headers');
  });
}
