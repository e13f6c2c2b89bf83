import type { Knex } from 'knex';

/**
 * Credit top-ups: a payment is either a plan upgrade (it names the plan) or a credit pack bought without a plan change
 * (it names the pack and the credits it adds, fixed at checkout). A top-up's ledger grant happens once per payment,
 * as an upgrade's does, so the one-grant index covers its reason too.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.text('kind').notNullable().defaultTo('plan_upgrade');
    t.text('credit_pack');
    t.integer('credits');
    t.text('plan').nullable().alter();
  });
  await db.raw(`alter table payments add constraint payments_kind check (
    (kind = 'plan_upgrade' and plan is not null and credit_pack is null)
    or (kind = 'credit_top_up' and plan is null and credit_pack is not null and credits > 0))`);
  await db.raw('drop index credit_ledger_once');
  await db.raw(
    "create unique index credit_ledger_once on credit_ledger (organization_id, reason, reference) where reason in ('free_plan_grant', 'plan_upgrade', 'credit_top_up')",
  );
}

export async function down(db: Knex): Promise<void> {
  await db('payments').where({ kind: 'credit_top_up' }).delete();
  await db.raw('drop index credit_ledger_once');
  await db.raw("create unique index credit_ledger_once on credit_ledger (organization_id, reason, reference) where reason in ('free_plan_grant', 'plan_upgrade')");
  await db.raw('alter table payments drop constraint payments_kind');
  await db.schema.alterTable('payments', (t) => {
    t.dropColumn('kind');
    t.dropColumn('credit_pack');
    t.dropColumn('credits');
    t.text('plan').notNullable().alter();
  });
}
