import type { Knex } from 'knex';

/** Who changed keys, roles, members, templates and plans, when, what and from which address. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audit_log', (t) => {
    t.text('id').primary(); // aud_…
    t.text('organization_id').notNullable();
    t.text('actor_id').notNullable(); // the account (acc_…) that acted
    t.text('actor_role').notNullable(); // its role then; `payment` for a plan activated by the gateway's webhook
    t.text('action').notNullable(); // object.verb: api_key.rotated, member.role_changed, plan.changed…
    t.text('target_id');
    t.jsonb('details').notNullable().defaultTo('{}'); // the request's non-secret fields (name, role, plan…)
    t.text('ip_address').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['organization_id', 'created_at', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('audit_log');
}
