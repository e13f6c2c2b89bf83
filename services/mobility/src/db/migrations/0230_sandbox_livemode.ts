import type { Knex } from 'knex';

/**
 * Test mode (sandbox): every key, job, delivery quote, webhook endpoint and outbox event is live (true) or test data
 * (false). Existing rows are live. Two fixed, clearly fake assignees (one driver, one courier) hold the sandbox's test
 * jobs; they are disabled, so dispatch never offers them anything and the driver app refuses them.
 */
const TABLES = ['api_keys', 'rides', 'deliveries', 'delivery_quotes', 'webhook_endpoints', 'outbox_events'] as const;

export const SANDBOX_DRIVER_ID = 'drv_sandbox_driver';
export const SANDBOX_COURIER_ID = 'drv_sandbox_courier';

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.boolean('livemode').notNullable().defaultTo(true);
    });
  }
  const sandbox = {
    organization_id: 'platform_sandbox',
    phone: '+10000000000',
    tier: 'economy',
    vehicle_make: 'Sandbox',
    vehicle_model: 'Test Vehicle',
    vehicle_plate: 'SANDBOX',
    vehicle_color: 'none',
    available: false,
    serves_all_partners: false,
    disabled_at: db.fn.now(),
  };
  await db('drivers').insert([
    { ...sandbox, id: SANDBOX_DRIVER_ID, name: 'Sandbox Driver', kind: 'driver' },
    { ...sandbox, id: SANDBOX_COURIER_ID, name: 'Sandbox Courier', kind: 'courier' },
  ]);
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['rides', 'deliveries'] as const) {
    await db(table).whereIn(table === 'rides' ? 'driver_id' : 'courier_id', [SANDBOX_DRIVER_ID, SANDBOX_COURIER_ID]).delete();
  }
  await db('drivers').whereIn('id', [SANDBOX_DRIVER_ID, SANDBOX_COURIER_ID]).delete();
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('livemode');
    });
  }
}
