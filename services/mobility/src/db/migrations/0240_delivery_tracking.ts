import type { Knex } from 'knex';

/**
 * The public tracking page: each delivery's tracking token, kept only as its SHA-256 (hex, the lookup
 * key of GET /track/{token}), and the timeline of its status changes (`[{status, at}]`, appended by every change).
 * Deliveries made before this migration have no token (`tracking_url: null`) and an empty timeline.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('deliveries', (t) => {
    t.text('tracking_token_hash').unique();
    t.jsonb('status_timeline').notNullable().defaultTo(db.raw(`'[]'::jsonb`));
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('deliveries', (t) => {
    t.dropColumn('status_timeline');
    t.dropColumn('tracking_token_hash');
  });
}
