import type { Knex } from 'knex';

/**
 * The W3C `traceparent` of the request whose state change appended the event (null for events appended outside a
 * request, such as dispatch timeouts, and for events from before this migration): the webhook POST continues that trace.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('outbox_events', (t) => {
    t.text('traceparent');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('outbox_events', (t) => {
    t.dropColumn('traceparent');
  });
}
