import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import { findPlan } from '../plans';
import { allocateInvoiceNumber } from './invoice-numbers';
import { splitVat } from './invoice-amounts';

/** The seller's side of every invoice (INVOICE_SELLER_NAME, INVOICE_SELLER_ADDRESS, INVOICE_SELLER_TAX_ID) and the VAT rate (INVOICE_VAT_RATE). */
export interface InvoiceSettings {
  sellerName: string;
  sellerAddress?: string;
  sellerTaxId?: string;
  /** Percent (7.5); unset: invoices carry no VAT. */
  vatRate?: number;
}

/** An organization's billing details: the buyer's side of its invoices. */
export interface BillingDetails {
  legal_name: string;
  address: string;
  tax_id: string | null;
  email: string;
}

export interface BillingDetailsRow extends BillingDetails {
  organization_id: string;
  updated_at: Date;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Minor units, VAT excluded. */
  unit_amount: number;
  amount: number;
}

export interface InvoiceRow {
  id: string;
  number: string;
  year: number;
  sequence: number;
  organization_id: string;
  payment_reference: string;
  issued_at: Date;
  seller_name: string;
  seller_address: string | null;
  seller_tax_id: string | null;
  buyer_name: string;
  buyer_address: string | null;
  buyer_tax_id: string | null;
  buyer_email: string | null;
  lines: InvoiceLine[];
  subtotal: string | number;
  vat_rate: string | null;
  vat_amount: string | number;
  total: string | number;
  currency: string;
}

/** What a paid payment brings to its invoice. */
export interface InvoicedPayment {
  reference: string;
  organization_id: string;
  kind: 'plan_upgrade' | 'credit_top_up';
  plan: string | null;
  credits: number | null;
  amount: string | number;
  currency: string;
  activated_at?: Date | null;
}

/** What was bought, as the invoice's line says it. */
function describe(payment: InvoicedPayment): string {
  if (payment.kind === 'credit_top_up') return `Credit pack: ${Number(payment.credits).toLocaleString('en-US')} certificate credits`;
  const plan = findPlan(payment.plan ?? '');
  return `Plan ${plan?.name ?? payment.plan}: ${(plan?.credits ?? 0).toLocaleString('en-US')} certificate credits, 1 month`;
}

/**
 * Issues the invoice of a payment just marked paid, inside that same transaction: the next number of the year (no gap:
 * see allocateInvoiceNumber), the seller's details from the settings, the buyer's from the organization's billing
 * details (its name when it has none), one line item, and VAT split out of the price paid.
 */
export async function issueInvoice(trx: Knex.Transaction, payment: InvoicedPayment, settings: InvoiceSettings): Promise<InvoiceRow> {
  const issuedAt = payment.activated_at ?? new Date();
  const { year, sequence, number } = await allocateInvoiceNumber(trx, issuedAt.getUTCFullYear());
  const buyer = (await trx('organization_billing_details').where({ organization_id: payment.organization_id }).first()) as BillingDetailsRow | undefined;
  const organization = (await trx('organizations').where({ id: payment.organization_id }).first('name')) as { name: string } | undefined;
  const { net, vat, gross } = splitVat(Number(payment.amount), settings.vatRate);
  const [row] = await trx('invoices')
    .insert({
      id: newId('in'),
      number,
      year,
      sequence,
      organization_id: payment.organization_id,
      payment_reference: payment.reference,
      issued_at: issuedAt,
      seller_name: settings.sellerName,
      seller_address: settings.sellerAddress ?? null,
      seller_tax_id: settings.sellerTaxId ?? null,
      buyer_name: buyer?.legal_name ?? organization?.name ?? payment.organization_id,
      buyer_address: buyer?.address ?? null,
      buyer_tax_id: buyer?.tax_id ?? null,
      buyer_email: buyer?.email ?? null,
      lines: JSON.stringify([{ description: describe(payment), quantity: 1, unit_amount: net, amount: net }]),
      subtotal: net,
      vat_rate: settings.vatRate ?? null,
      vat_amount: vat,
      total: gross,
      currency: payment.currency,
    })
    .returning('*');
  return row as InvoiceRow;
}

/** Invoices and billing details, always within one organization. */
export function createInvoicesRepository(db: Knex) {
  return {
    /** Newest first (by number), `limit + 1` rows after the invoice `cursor`. */
    async list(organizationId: string, page: { limit: number; cursor?: string }): Promise<InvoiceRow[]> {
      const query = db('invoices').where({ organization_id: organizationId });
      if (page.cursor) {
        query.whereRaw('(year, sequence) < (select year, sequence from invoices where id = ? and organization_id = ?)', [page.cursor, organizationId]);
      }
      return query.orderBy([{ column: 'year', order: 'desc' }, { column: 'sequence', order: 'desc' }]).limit(page.limit + 1);
    },
    async find(organizationId: string, id: string): Promise<InvoiceRow | undefined> {
      return db('invoices').where({ organization_id: organizationId, id }).first();
    },
    /** The gateway (its id) and transaction id of each of these invoices' payments, by payment reference: one query. */
    async paymentsOf(references: string[]): Promise<Map<string, { gateway: string; gateway_transaction_id: string | null }>> {
      if (references.length === 0) return new Map();
      const rows = (await db('payments').whereIn('reference', references).select('reference', 'gateway', 'gateway_transaction_id')) as { reference: string; gateway: string; gateway_transaction_id: string | null }[];
      return new Map(rows.map((row) => [row.reference, { gateway: row.gateway, gateway_transaction_id: row.gateway_transaction_id }]));
    },
    /** The invoice of each of these payments, by payment reference. */
    async numbersOf(references: string[]): Promise<Map<string, { id: string; number: string }>> {
      if (references.length === 0) return new Map();
      const rows = (await db('invoices').whereIn('payment_reference', references).select('id', 'number', 'payment_reference')) as { id: string; number: string; payment_reference: string }[];
      return new Map(rows.map((row) => [row.payment_reference, { id: row.id, number: row.number }]));
    },
    async billingDetails(organizationId: string): Promise<BillingDetailsRow | undefined> {
      return db('organization_billing_details').where({ organization_id: organizationId }).first();
    },
    /** Sets the organization's billing details (its next invoices use them; issued ones keep theirs). */
    async saveBillingDetails(organizationId: string, details: BillingDetails): Promise<BillingDetailsRow> {
      const [row] = await db('organization_billing_details')
        .insert({ organization_id: organizationId, ...details, updated_at: db.fn.now() })
        .onConflict('organization_id')
        .merge()
        .returning('*');
      return row as BillingDetailsRow;
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
