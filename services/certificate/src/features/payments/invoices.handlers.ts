import { adminOf } from '@platform/service-kit/admin-auth';
import { NotFoundError } from '@platform/service-kit/errors';
import { isIdOf } from '@platform/service-kit/ids';
import type { Handlers } from '@platform/service-kit/operations';
import { pageOf } from '@platform/service-kit/pagination';
import type { PaymentGateway } from './payment-gateway';
import type { PaymentsRepository } from './payments.repository';
import { renderInvoice } from './invoice-pdf';
import type { invoicesRouteTable } from './invoices.contract';
import { presentBillingDetails, presentInvoice } from './invoices.presenter';
import type { InvoiceRow, InvoicesRepository } from './invoices.repository';

export interface InvoicesHandlerDeps {
  invoices: InvoicesRepository;
  paymentRecords: PaymentsRepository;
  /** By gateway id: invoices name the gateway by its configured display name. */
  paymentGateways: Map<string, PaymentGateway>;
}

/**
 * `/admin/v1/invoices`: the organization's invoices (one per paid payment), each as JSON and as a PDF; and
 * `/admin/v1/billing-details`, the organization's side of its invoices (owners set them). Another organization's
 * invoice, or an id of another shape, is a 404 like an unknown one.
 */
export function invoicesHandlers({ invoices, paymentRecords, paymentGateways }: InvoicesHandlerDeps): Handlers<typeof invoicesRouteTable> {
  /** How an invoice names its payment's gateway (its configured display name) and transaction. */
  const gatewayOf = (payment: { gateway: string; gateway_transaction_id?: string | null } | undefined) => ({
    gatewayName: (payment && paymentGateways.get(payment.gateway)?.displayName) ?? payment?.gateway ?? '—',
    transactionId: payment?.gateway_transaction_id ?? null,
  });
  const gatewayNameOf = async (row: InvoiceRow) => gatewayOf(await paymentRecords.find(row.payment_reference));
  const findInvoice = async (organizationId: string, id: string) => {
    const row = isIdOf('in', id) ? await invoices.find(organizationId, id) : undefined;
    if (!row) throw new NotFoundError('Invoice not found');
    return row;
  };
  return {
    listInvoices: async ({ query, req }) => {
      const rows = await invoices.list(adminOf(req).org, query);
      // The page's payments in one query, not one per invoice.
      const payments = await invoices.paymentsOf(rows.map((row) => row.payment_reference));
      return { status: 200, body: pageOf(rows, query.limit, (row) => presentInvoice(row, gatewayOf(payments.get(row.payment_reference)).gatewayName)) };
    },
    getInvoice: async ({ params, req }) => {
      const row = await findInvoice(adminOf(req).org, params.id);
      return { status: 200, body: presentInvoice(row, (await gatewayNameOf(row)).gatewayName) };
    },
    invoicePdf: async ({ params, req, res }) => {
      const row = await findInvoice(adminOf(req).org, params.id);
      const pdf = await renderInvoice(row, await gatewayNameOf(row));
      res
        .status(200)
        .set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${row.number}.pdf"`, 'Cache-Control': 'private, no-store' })
        .end(pdf);
    },
    getBillingDetails: async ({ req }) => ({ status: 200, body: presentBillingDetails(await invoices.billingDetails(adminOf(req).org)) }),
    updateBillingDetails: async ({ body, req }) => {
      const row = await invoices.saveBillingDetails(adminOf(req).org, { legal_name: body.legal_name, address: body.address, tax_id: body.tax_id ?? null, email: body.email });
      return { status: 200, body: presentBillingDetails(row) };
    },
  };
}
