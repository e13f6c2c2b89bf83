import type { Knex } from 'knex';

/** Drivers, fare estimates, rides, dispatch offers and stored idempotent answers. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('drivers', (t) => {
    t.text('id').primary(); // drv_…
    t.text('organization_id').notNullable(); // the operator's organization that registered the driver
    t.text('name').notNullable();
    t.text('phone').notNullable();
    t.text('kind').notNullable(); // driver | courier
    t.text('tier').notNullable(); // moto | economy | comfort | xl
    t.text('vehicle_make').notNullable();
    t.text('vehicle_model').notNullable();
    t.text('vehicle_plate').notNullable();
    t.text('vehicle_color').notNullable();
    t.double('rating').notNullable().defaultTo(5);
    t.boolean('available').notNullable().defaultTo(false);
    // The one job (offered or assigned) this driver holds; claimed with a conditional UPDATE so it is never two.
    t.text('current_job_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('estimates', (t) => {
    t.text('id').primary(); // est_…
    t.text('partner_id').notNullable();
    t.double('pickup_lat').notNullable();
    t.double('pickup_lng').notNullable();
    t.double('dropoff_lat').notNullable();
    t.double('dropoff_lng').notNullable();
    t.integer('distance_meters').notNullable();
    t.jsonb('fares').notNullable(); // {tier: {amount, currency}}
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('rides', (t) => {
    t.text('id').primary(); // ride_…
    t.text('partner_id').notNullable();
    t.text('status').notNullable();
    t.text('tier').notNullable();
    t.double('pickup_lat').notNullable();
    t.double('pickup_lng').notNullable();
    t.text('pickup_address');
    t.double('dropoff_lat').notNullable();
    t.double('dropoff_lng').notNullable();
    t.text('dropoff_address');
    t.integer('fare_amount').notNullable();
    t.text('fare_currency').notNullable();
    t.text('estimate_id');
    t.text('passenger_name').notNullable();
    t.text('passenger_phone').notNullable();
    t.text('driver_id').references('id').inTable('drivers');
    t.text('cancelled_by'); // partner | driver | system
    t.integer('sequence').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['partner_id', 'created_at']);
    t.index(['driver_id']);
  });
  await db.schema.createTable('dispatch_offers', (t) => {
    t.text('id').primary(); // ofr_…
    t.text('kind').notNullable(); // ride | delivery
    t.text('job_id').notNullable();
    t.text('driver_id').notNullable().references('id').inTable('drivers');
    t.text('status').notNullable(); // pending | accepted | declined | expired | withdrawn
    t.jsonb('pickup').notNullable(); // {lat, lng, address?}: what the driver is shown
    t.jsonb('dropoff').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('responded_at', { useTz: true });
    t.unique(['job_id', 'driver_id']); // a driver is asked at most once per job
    t.index(['driver_id', 'status']);
  });
  await db.schema.createTable('idempotency_keys', (t) => {
    t.text('partner_id').notNullable();
    t.text('scope').notNullable(); // e.g. "POST /api/v1/rides"
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.integer('response_status');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['partner_id', 'scope', 'key']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['idempotency_keys', 'dispatch_offers', 'rides', 'estimates', 'drivers']) await db.schema.dropTable(table);
}
