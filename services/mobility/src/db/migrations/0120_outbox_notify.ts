import type { Knex } from 'knex';

/**
 * Every transaction that appends outbox events notifies `mobility_outbox_events` when it commits (a statement-level
 * trigger, so a batch insert sends one notification, and Postgres folds repeats within a transaction into one). The
 * worker LISTENs and runs its relay at once instead of at its next poll; a rolled-back transaction notifies nobody.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create or replace function notify_outbox_events() returns trigger language plpgsql as $$
    begin
      perform pg_notify('mobility_outbox_events', '');
      return null;
    end
    $$`);
  await db.raw('create trigger outbox_events_notify after insert on outbox_events for each statement execute function notify_outbox_events()');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop trigger if exists outbox_events_notify on outbox_events');
  await db.raw('drop function if exists notify_outbox_events()');
}
