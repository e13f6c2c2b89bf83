import type { Knex } from 'knex';

/**
 * The partner lists of rides and deliveries read newest first, by (created_at, id), optionally of one status. These
 * indexes answer a page of either list from the index order alone, however many rows the partner has; they replace
 * the (partner_id, created_at) indexes, whose order does not break ties by id.
 */
const TABLES = ['rides', 'deliveries'] as const;

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.raw(`create index ${table}_partner_newest_index on ${table} (partner_id, created_at desc, id desc)`);
    await db.raw(`create index ${table}_partner_status_newest_index on ${table} (partner_id, status, created_at desc, id desc)`);
    await db.raw(`drop index if exists ${table}_partner_id_created_at_index`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.raw(`create index if not exists ${table}_partner_id_created_at_index on ${table} (partner_id, created_at)`);
    await db.raw(`drop index if exists ${table}_partner_status_newest_index`);
    await db.raw(`drop index if exists ${table}_partner_newest_index`);
  }
}
