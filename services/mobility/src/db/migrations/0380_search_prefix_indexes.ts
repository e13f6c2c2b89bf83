import type { Knex } from 'knex';

/**
 * The dashboard's search (`GET /admin/v1/search`) matches ids and pass codes by prefix within one partner: these
 * indexes serve `like 'prefix%'` (text_pattern_ops, whatever the database's collation) so a search reads a few index
 * entries, not the partner's every ride.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('create index rides_partner_id_prefix on rides (partner_id, livemode, id text_pattern_ops)');
  await db.raw('create index deliveries_partner_id_prefix on deliveries (partner_id, livemode, id text_pattern_ops)');
  await db.raw('create index event_passes_partner_code_prefix on event_passes (partner_id, code text_pattern_ops)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists rides_partner_id_prefix');
  await db.raw('drop index if exists deliveries_partner_id_prefix');
  await db.raw('drop index if exists event_passes_partner_code_prefix');
}
