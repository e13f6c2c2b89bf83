import type { Knex } from 'knex';

/**
 * Invoices: each paid payment gets one, numbered INV-<year>-<nnnnnn> without gaps. The number comes from a counter row
 * per year, incremented in the transaction that marks the payment paid (a Postgres sequence would leave gaps on
 * rollback). An invoice keeps a copy of the seller's and the buyer's details as they were when it was issued, its line
 * items and its VAT, so it never changes afterwards. Organizations get billing details (legal name, address, tax id,
 * email) for the buyer's side.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organization_billing_details', (t) => {
    t.text('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.text('legal_name').notNullable();
    t.text('address').notNullable();
    t.text('tax_id');
    t.text('email').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('invoice_counters', (t) => {
    t.integer('year').primary();
    t.integer('last_number').notNullable();
    t.check('last_number > 0', [], 'invoice_counters_positive');
  });
  await db.schema.createTable('invoices', (t) => {
    t.text('id').primary(); // inv_…
    t.text('number').notNullable().unique(); // INV-2026-000001
    t.integer('year').notNullable();
    t.integer('sequence').notNullable();
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('payment_reference').notNullable().unique().references('payments.reference').onDelete('CASCADE');
    t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.text('seller_name').notNullable();
    t.text('seller_address');
    t.text('seller_tax_id');
    t.text('buyer_name').notNullable();
    t.text('buyer_address');
    t.text('buyer_tax_id');
    t.text('buyer_email');
    t.jsonb('lines').notNullable(); // [{ description, quantity, unit_amount, amount }], minor units, VAT excluded
    t.bigInteger('subtotal').notNullable();
    t.decimal('vat_rate', 5, 2); // percent; null when no VAT is configured
    t.bigInteger('vat_amount').notNullable().defaultTo(0);
    t.bigInteger('total').notNullable();
    t.text('currency').notNullable();
    t.unique(['year', 'sequence']);
    t.index(['organization_id', 'year', 'sequence']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('invoices');
  await db.schema.dropTable('invoice_counters');
  await db.schema.dropTable('organization_billing_details');
}
