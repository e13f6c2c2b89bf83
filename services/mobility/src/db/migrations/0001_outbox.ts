import type { Knex } from 'knex';

/** The transactional outbox: every status change writes its event here in the same transaction. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('outbox_events', (t) => {
    t.text('id').primary(); // evt_…
    t.text('partner_id').notNullable();
    t.text('type').notNullable(); // ride.accepted, delivery.delivered, …
    t.text('object_type').notNullable(); // ride | delivery
    t.text('object_id').notNullable();
    t.integer('sequence').notNullable(); // per object, increasing
    t.jsonb('body').notNullable(); // the exact event body: {id, type, created_at, data}
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
    t.unique(['object_id', 'sequence']);
  });
  await db.raw('create index outbox_events_pending on outbox_events (created_at) where dispatched_at is null');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('outbox_events');
}
