import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { pageSchema } from '@platform/service-kit/pagination';
import { invalidAdminTokenResponse, notFoundResponse, ownerOnlyLiveOnlyResponse, testModeNotSupportedResponse, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { moneySchema } from './payments.contract';
import { billingDetailsBody, invoiceListQuery } from './invoices.schema';

const party = {
  name: z.string(),
  address: z.string().nullable().meta({ description: 'One line per line of the address.' }),
  tax_id: z.string().nullable(),
};

export const invoiceSchema = z.object({
  id: z.string().regex(/^in_/).meta({ examples: ["in_4k2m9x0q7w1e5r8t3y6u"] }),
  number: z.string().regex(/^INV-\d{4}-\d{6}$/).meta({ description: "The seller's invoice number: one sequence per year, without gaps.", examples: ["INV-2026-000001"] }),
  issued_at: z.iso.datetime({ offset: true }).meta({ description: "When the payment was confirmed; the invoice's date." }),
  payment_reference: z.string().regex(/^pay_/),
  seller: z.object(party).meta({ description: "The seller as configured when the invoice was issued (INVOICE_SELLER_NAME, INVOICE_SELLER_ADDRESS, INVOICE_SELLER_TAX_ID)." }),
  buyer: z.object({ ...party, email: z.string().nullable() }).meta({ description: "The organization's billing details when the invoice was issued (its name when it had none)." }),
  lines: z.array(z.object({
    description: z.string(),
    quantity: z.int().min(1),
    unit_price: moneySchema.meta({ description: "VAT excluded." }),
    amount: moneySchema.meta({ description: "Quantity × unit price, VAT excluded." }),
  })),
  subtotal: moneySchema.meta({ description: "The lines' sum, VAT excluded." }),
  vat: z.object({
    rate: z.number().meta({ description: "Percent.", examples: [7.5] }),
    amount: moneySchema,
  }).nullable().meta({ description: "Null when no VAT rate was configured (INVOICE_VAT_RATE) at issue." }),
  total: moneySchema.meta({ description: "What was paid, VAT included." }),
  gateway_name: z.string().meta({ description: "The payment gateway, by its configured name." }),
}).meta({ id: "Invoice" });

export const billingDetailsSchema = z.object({
  legal_name: z.string().nullable(),
  address: z.string().nullable(),
  tax_id: z.string().nullable(),
  email: z.string().nullable(),
  updated_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "Null while none are set: invoices then name the organization only." }),
}).meta({ id: "BillingDetails" });

/** Invoices and billing details are about real money, like payments: live only. */
const adminBilling = { tags: ["Admin subscriptions"], security: [{"adminJwt": []}], mode: 'live-only' as const };
const invoiceId = z.object({ id: z.string().meta({ description: "An invoice id (`in_…`); any other shape is a 404." }) });

export const invoicesRouteTable = [
  route({
    operationId: 'listInvoices',
    method: 'get',
    path: '/admin/v1/invoices',
    ...adminBilling,
    query: invoiceListQuery,
    responses: {
      200: pageSchema(invoiceSchema),
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'getInvoice',
    method: 'get',
    path: '/admin/v1/invoices/{id}',
    ...adminBilling,
    params: invoiceId,
    responses: {
      200: invoiceSchema,
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'invoicePdf',
    method: 'get',
    path: '/admin/v1/invoices/{id}/pdf',
    ...adminBilling,
    params: invoiceId,
    responses: {
      200: { content: { "application/pdf": z.string().meta({ format: "binary" }) } },
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'getBillingDetails',
    method: 'get',
    path: '/admin/v1/billing-details',
    ...adminBilling,
    responses: {
      200: billingDetailsSchema,
      401: invalidAdminTokenResponse,
      403: testModeNotSupportedResponse,
    },
  }),
  route({
    operationId: 'updateBillingDetails',
    method: 'put',
    path: '/admin/v1/billing-details',
    ...adminBilling,
    body: billingDetailsBody,
    // What the organization's invoices say about it: owners only.
    roles: ['owner'],
    audit: 'billing_details.updated',
    responses: {
      200: billingDetailsSchema,
      401: invalidAdminTokenResponse,
      403: ownerOnlyLiveOnlyResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
