import type { Knex } from 'knex';

/** Delivery quotes: a fee and ETAs for one pickup, drop-off and weight tier, bookable by the same partner for 15 minutes. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('delivery_quotes', (t) => {
    t.text('id').primary(); // dq_…
    t.text('partner_id').notNullable();
    t.double('pickup_lat').notNullable();
    t.double('pickup_lng').notNullable();
    t.double('dropoff_lat').notNullable();
    t.double('dropoff_lng').notNullable();
    t.text('weight_tier').notNullable();
    t.integer('distance_meters').notNullable();
    t.integer('fee_amount').notNullable();
    t.text('fee_currency').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('delivery_quotes');
}
