import type { Knex } from 'knex';

/**
 * `webhook_deliveries` keeps half of each page free. A claim changes no indexed column (attempts, lease, token), so
 * with room on its page Postgres writes the new row version beside the old one (a HOT update) instead of adding an
 * entry to each of the table's indexes: the claim is one of the two updates every delivery gets, at thousands of
 * deliveries a second. The space applies to pages written from now on (new deliveries); older pages fill as before.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table webhook_deliveries set (fillfactor = 50)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table webhook_deliveries reset (fillfactor)');
}
