import type { Knex } from 'knex';

/**
 * For the tracking page: each partner's branding (the name and logo the recipient sees, and an accent colour),
 * the proof-of-delivery images a courier hands in (stored as bytes, served by the platform itself), and the sandbox
 * courier's place along a test delivery's route line (0 at the pick-up, 1 at the drop-off; negative: still on its way to
 * the pick-up).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('partner_branding', (t) => {
    t.text('partner_id').primary().references('partners.id').onDelete('CASCADE');
    t.text('display_name');
    t.text('brand_color');
    t.binary('logo');
    t.text('logo_content_type');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('delivery_proof_images', (t) => {
    t.text('delivery_id').notNullable().references('deliveries.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['photo', 'signature']);
    t.text('content_type').notNullable();
    t.binary('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['delivery_id', 'kind']);
  });
  await db.schema.alterTable('deliveries', (t) => {
    t.double('sandbox_courier_progress');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('deliveries', (t) => t.dropColumn('sandbox_courier_progress'));
  await db.schema.dropTable('delivery_proof_images');
  await db.schema.dropTable('partner_branding');
}
