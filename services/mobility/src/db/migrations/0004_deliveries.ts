import type { Knex } from 'knex';

/** Courier deliveries: the security PIN is kept only as a salted scrypt hash, with a counter of wrong tries. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('deliveries', (t) => {
    t.text('id').primary(); // dlv_…
    t.text('partner_id').notNullable();
    t.text('status').notNullable();
    t.text('weight_tier').notNullable(); // small | medium | large | xlarge
    t.double('pickup_lat').notNullable();
    t.double('pickup_lng').notNullable();
    t.text('pickup_address');
    t.double('dropoff_lat').notNullable();
    t.double('dropoff_lng').notNullable();
    t.text('dropoff_address');
    t.text('sender_name').notNullable();
    t.text('sender_phone').notNullable();
    t.text('recipient_name').notNullable();
    t.text('recipient_phone').notNullable();
    t.text('notes');
    t.integer('fee_amount').notNullable();
    t.text('fee_currency').notNullable();
    t.text('pin_hash').notNullable(); // scrypt$<salt b64>$<hash b64>; never the PIN
    t.integer('pin_failed_attempts').notNullable().defaultTo(0);
    t.text('courier_id').references('id').inTable('drivers');
    t.text('failure_reason');
    t.text('cancelled_by'); // partner | system
    t.text('received_by');
    t.text('photo_url');
    t.double('delivered_lat');
    t.double('delivered_lng');
    t.timestamp('delivered_at', { useTz: true });
    t.integer('sequence').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['partner_id', 'created_at']);
    t.index(['courier_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('deliveries');
}
