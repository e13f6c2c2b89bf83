import type { z } from 'zod';
import type { billingDetailsSchema, invoiceSchema } from './invoices.contract';
import type { BillingDetailsRow, InvoiceRow } from './invoices.repository';

/** An invoice as the admin API answers it: amounts as Money, the VAT (or null), the gateway by its name. */
export function presentInvoice(row: InvoiceRow, gatewayName: string): z.infer<typeof invoiceSchema> {
  const money = (amount: string | number) => ({ amount: Number(amount), currency: row.currency });
  return {
    id: row.id,
    number: row.number,
    issued_at: row.issued_at.toISOString(),
    payment_reference: row.payment_reference,
    seller: { name: row.seller_name, address: row.seller_address, tax_id: row.seller_tax_id },
    buyer: { name: row.buyer_name, address: row.buyer_address, tax_id: row.buyer_tax_id, email: row.buyer_email },
    lines: row.lines.map((line) => ({ description: line.description, quantity: line.quantity, unit_price: money(line.unit_amount), amount: money(line.amount) })),
    subtotal: money(row.subtotal),
    vat: row.vat_rate === null ? null : { rate: Number(row.vat_rate), amount: money(row.vat_amount) },
    total: money(row.total),
    gateway_name: gatewayName,
  };
}

/** The billing details, or all null while none are set. */
export function presentBillingDetails(row: BillingDetailsRow | undefined): z.infer<typeof billingDetailsSchema> {
  return {
    legal_name: row?.legal_name ?? null,
    address: row?.address ?? null,
    tax_id: row?.tax_id ?? null,
    email: row?.email ?? null,
    updated_at: row?.updated_at.toISOString() ?? null,
  };
}
