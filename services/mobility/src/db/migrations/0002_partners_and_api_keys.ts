import type { Knex } from 'knex';

/** Partners (organizations, created on first sight from admin JWT claims) and their scoped API keys. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('partners', (t) => {
    t.text('id').primary(); // the `org` claim
    t.text('name');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('api_keys', (t) => {
    t.text('id').primary(); // key_…
    t.text('partner_id').notNullable().references('id').inTable('partners');
    t.text('name').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.text('token_hash').notNullable().unique(); // sha256 of the token; the token itself is never stored
    t.text('token_hint').notNullable();
    t.text('status').notNullable().defaultTo('active'); // active | revoked
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['partner_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_keys');
  await db.schema.dropTable('partners');
}
