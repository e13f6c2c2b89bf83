import { z } from 'zod';
import { pageQuerySchema } from '@platform/service-kit/pagination';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

/** One line of text: no line breaks, trimmed. */
const line = (max: number) => z.string().trim().min(1).max(max).regex(/^[^\r\n]*$/, 'must be one line');

export const billingDetailsBody = z
  .object({
    legal_name: line(200).meta({ description: "The organization's legal name, as invoices address it." }),
    address: z.string().trim().min(1).max(500).meta({ description: 'The postal address; one line per line of the address.' }),
    tax_id: line(50).nullable().optional().meta({ description: 'The tax id (VAT or TIN) invoices show; null or absent for none.' }),
    email: z.email().max(254).meta({ description: 'Where billing questions go; shown on invoices.' }),
  })
  .strict()
  .meta({
    id: 'BillingDetailsInput',
    examples: [{ legal_name: 'Acme Learning Ltd', address: '12 Marina Road\nLagos 101241\nNigeria', tax_id: '12345678-0001', email: 'accounts@acme.example' }],
  });

export const invoiceListQuery = pageQuerySchema({ defaultLimit: 20, idPrefix: 'in', id: 'InvoiceListQuery' });
