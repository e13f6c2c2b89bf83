import type { Knex } from 'knex';

/**
 * Recover spacing per partner and mode instead of per endpoint id: a partner's last recover, so that making new
 * endpoints (or deleting and re-making one) does not open a new interval.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_recover_marks', (t) => {
    t.text('partner_id').notNullable();
    t.boolean('livemode').notNullable();
    t.timestamp('last_recovered_at', { useTz: true }).notNullable();
    t.primary(['partner_id', 'livemode']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_recover_marks');
}
