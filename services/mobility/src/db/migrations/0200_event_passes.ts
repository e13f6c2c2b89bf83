import type { Knex } from 'knex';

/**
 * Event attendee passes: programs (an organizer's budget for rides to and from a venue), their passes, and one
 * redemption per ride that used a pass. The CHECK constraints are the last line behind the conditional UPDATEs: the
 * budget is never over-committed and a pass never gives more rides than it allows.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('event_pass_programs', (t) => {
    t.text('id').primary(); // evp_…
    t.text('partner_id').notNullable();
    t.text('name').notNullable();
    t.double('venue_lat').notNullable();
    t.double('venue_lng').notNullable();
    t.integer('venue_radius_m').notNullable();
    t.text('venue_address');
    t.timestamp('valid_from', { useTz: true }).notNullable();
    t.timestamp('valid_until', { useTz: true }).notNullable();
    t.text('applies_to').notNullable(); // to_venue | from_venue | both
    t.specificType('tiers', 'text[]').notNullable();
    t.integer('max_fare_per_ride').notNullable();
    t.bigInteger('budget').notNullable();
    t.text('currency').notNullable();
    t.integer('rides_per_pass').notNullable();
    t.bigInteger('budget_reserved').notNullable().defaultTo(0); // covered amounts of rides in progress
    t.bigInteger('budget_spent').notNullable().defaultTo(0); // covered amounts of completed rides
    t.text('status').notNullable().defaultTo('open'); // open | closed
    t.timestamp('closed_at', { useTz: true });
    t.timestamp('budget_exhausted_at', { useTz: true }); // set once, with the one budget_exhausted event
    t.integer('sequence').notNullable().defaultTo(0); // the program's outbox event sequence
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['partner_id', 'id']);
  });
  await db.raw(`alter table event_pass_programs add constraint event_pass_programs_budget_within check (
    budget_reserved >= 0 and budget_spent >= 0 and budget_reserved + budget_spent <= budget)`);
  await db.schema.createTable('event_passes', (t) => {
    t.text('id').primary(); // evpass_…
    t.text('program_id').notNullable().references('id').inTable('event_pass_programs');
    t.text('partner_id').notNullable();
    t.text('code_hash').notNullable().unique(); // SHA-256 of the normalized code: the lookup key
    t.text('code').notNullable(); // the code as issued, shown only to the organizer that owns it
    t.text('attendee_reference');
    t.text('attendee_name');
    t.integer('rides_allowed').notNullable();
    t.integer('rides_used').notNullable().defaultTo(0); // rides in progress or completed
    t.text('status').notNullable().defaultTo('active'); // active | revoked
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['program_id', 'id']);
  });
  await db.raw('alter table event_passes add constraint event_passes_rides_within check (rides_used >= 0 and rides_used <= rides_allowed)');
  await db.schema.createTable('event_pass_redemptions', (t) => {
    t.text('ride_id').primary();
    t.text('pass_id').notNullable().references('id').inTable('event_passes');
    t.text('program_id').notNullable().references('id').inTable('event_pass_programs');
    t.integer('amount').notNullable(); // the covered amount, reserved then spent or released
    t.text('currency').notNullable();
    t.text('status').notNullable(); // reserved | spent | released
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('settled_at', { useTz: true });
    t.index(['program_id', 'status']);
    t.index(['pass_id']);
  });
  await db.schema.alterTable('rides', (t) => {
    t.text('event_pass_id'); // the pass that covers part of the fare, if any
    t.integer('pass_covered_amount'); // minor units the program covers (fare up to the cap)
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('rides', (t) => t.dropColumns('event_pass_id', 'pass_covered_amount'));
  for (const table of ['event_pass_redemptions', 'event_passes', 'event_pass_programs']) await db.schema.dropTable(table);
}
