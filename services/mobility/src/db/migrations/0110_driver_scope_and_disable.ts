import type { Knex } from 'knex';

/**
 * Which partners a driver serves and whether the driver may work at all: a driver registered by a platform operator
 * serves every partner, any other only the organization that registered it; a disabled driver is refused by the driver
 * app and never offered a job. The index pages an organization's drivers for the admin list.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('drivers', (t) => {
    t.boolean('serves_all_partners').notNullable().defaultTo(false);
    t.timestamp('disabled_at', { useTz: true });
    t.index(['organization_id', 'created_at', 'id'], 'drivers_organization_created_at');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('drivers', (t) => {
    t.dropIndex(['organization_id', 'created_at', 'id'], 'drivers_organization_created_at');
    t.dropColumns('serves_all_partners', 'disabled_at');
  });
}
