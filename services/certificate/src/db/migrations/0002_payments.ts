import type { Knex } from 'knex';

/** Checkout payments (one per upgrade attempt) and every inbound payment-gateway webhook, stored before it is acted on. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payments', (t) => {
    t.text('reference').primary(); // pay_… — the checkout reference the gateway echoes back
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('plan').notNullable();
    t.bigInteger('amount').notNullable(); // minor units
    t.text('currency').notNullable();
    t.text('gateway').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('failure_reason');
    t.text('gateway_transaction_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('activated_at', { useTz: true });
    t.check("status in ('pending', 'succeeded', 'failed')", [], 'payments_status');
    t.index(['organization_id', 'created_at']);
  });
  await db.schema.createTable('payment_webhooks', (t) => {
    t.bigIncrements('id');
    t.text('gateway').notNullable();
    t.text('event');
    t.text('reference');
    t.text('transaction_id');
    t.text('outcome').notNullable().defaultTo('received');
    t.text('detail');
    t.binary('body').notNullable(); // the raw bytes as received (any bytes, even NUL), for audit and replay
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['reference']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('payment_webhooks');
  await db.schema.dropTable('payments');
}
