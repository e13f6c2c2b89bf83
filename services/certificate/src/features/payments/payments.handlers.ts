import type { Request, Response } from 'express';
import { adminOf } from '@platform/service-kit/admin-auth';
import { ApiError, NotFoundError } from '@platform/service-kit/errors';
import { sendProblem } from '@platform/service-kit/error-handler';
import type { Logger } from '@platform/service-kit/logger';
import type { Handlers } from '@platform/service-kit/operations';
import { CREDIT_PACKS, PLANS } from '../plans';
import type { PaymentGateway } from './payment-gateway';
import { receivePaymentWebhook } from './payment-webhooks';
import type { paymentsRouteTable } from './payments.contract';
import { presentPayment } from './payments.presenter';
import type { PaymentRow, PaymentsRepository } from './payments.repository';
import type { PaymentsService } from './payments.service';
import type { InvoicesRepository } from './invoices.repository';
import { oneMonthAfter, PLAN_PERIOD, renderReceipt } from './receipts';

export interface PaymentsHandlerDeps {
  payments: PaymentsService;
  paymentRecords: PaymentsRepository;
  /** The invoice of each paid payment, for billing history. */
  invoices: InvoicesRepository;
  /** By gateway name; a Map, so `__proto__` is just an unknown name. */
  paymentGateways: Map<string, PaymentGateway>;
  /** The dashboard's base (`<PUBLIC_BASE_URL>/dashboard`): the gateway's page sends the payer back to its billing page. */
  dashboardUrl: string;
  /** DASHBOARD_ORIGINS: a checkout started from one of these returns there (the dashboard the payer came from). */
  dashboardOrigins: string[];
  logger: Logger;
}

/**
 * The payment webhooks (`/webhooks/payments/{gateway}`: the table hands over the exact bytes and the signature header
 * as sent, and the signature is checked over them here), the plans, packs and gateways on offer, the billing history
 * and its receipts, and the two checkouts: a plan (`/admin/v1/subscriptions/checkout`) and a credit pack
 * (`/admin/v1/credits/top-ups`).
 */
export function paymentsHandlers({ payments, paymentRecords, invoices, paymentGateways, dashboardUrl, dashboardOrigins, logger }: PaymentsHandlerDeps): Handlers<typeof paymentsRouteTable> {
  const receive = async (gatewayId: PaymentGateway['id'], body: unknown, req: Request, res: Response) => {
    const gateway = paymentGateways.get(gatewayId);
    if (!gateway) throw new NotFoundError('Not found');
    const rawBody = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    const outcome = await receivePaymentWebhook(gateway, rawBody, req.headers, { repository: paymentRecords, payments, logger });
    const { error, code, ...extra } = outcome.body;
    if (outcome.status >= 400 && typeof error === 'string' && typeof code === 'string') return sendProblem(res, outcome.status, code, error, extra);
    res.status(outcome.status).json(outcome.body);
  };

  /** Where the payer comes back: the dashboard origin the checkout came from when it is one of ours, else PUBLIC_BASE_URL's. */
  const returnBase = (origin: string | undefined) => (origin && dashboardOrigins.includes(origin) ? `${origin}/dashboard` : dashboardUrl);

  /** A payment as billing history: its gateway's name and, once paid, when; a paid plan's period too (a top-up has none). */
  const historyOf = (row: PaymentRow, invoice: { id: string; number: string } | null = null) => {
    const activated = row.status === 'succeeded' && row.activated_at ? row.activated_at : null;
    const planPeriod = activated && row.kind === 'plan_upgrade' ? activated : null;
    return {
      ...presentPayment(row),
      gateway_name: paymentGateways.get(row.gateway)?.displayName ?? row.gateway,
      activated_at: activated?.toISOString() ?? null,
      period: planPeriod ? PLAN_PERIOD : null,
      renews_at: planPeriod ? oneMonthAfter(planPeriod).toISOString() : null,
      invoice,
    };
  };

  /**
   * Opens a pending payment at the chosen gateway: the answer's `checkout_url` is the gateway's hosted payment page,
   * which returns the payer to the dashboard's billing page; the payment webhook then activates what was bought.
   */
  const openCheckout = async (req: Request, gateway: PaymentGateway['id'], start: () => Promise<ReturnType<typeof presentPayment>>) => {
    const chosen = paymentGateways.get(gateway)!;
    if (!chosen.isConfigured()) throw new ApiError(503, 'payment_gateway_not_configured', `${chosen.displayName} is not set up on this platform; choose another gateway`);
    const admin = adminOf(req);
    const payment = await start();
    const checkoutUrl = await chosen.initialize({
      reference: payment.reference,
      amountMinor: payment.amount.amount,
      currency: payment.amount.currency,
      email: (await paymentRecords.payerEmail(admin.sub)) ?? `billing+${admin.org}@partner-platform.invalid`,
      callbackUrl: `${returnBase(req.headers.origin)}/billing?reference=${encodeURIComponent(payment.reference)}`,
    });
    return { ...payment, gateway_name: chosen.displayName, checkout_url: checkoutUrl };
  };

  return {
    receiveGatewayAWebhook: ({ body, req, res }) => receive('gateway-a', body, req, res),
    receiveGatewayBWebhook: ({ body, req, res }) => receive('gateway-b', body, req, res),
    listPlans: () => ({
      status: 200,
      body: { data: PLANS.map((plan) => ({ id: plan.id, name: plan.name, price: plan.price, credits: plan.credits })), has_more: false, next_cursor: null },
    }),
    listCreditPacks: () => ({
      status: 200,
      body: { data: CREDIT_PACKS.map((pack) => ({ id: pack.id, name: pack.name, credits: pack.credits, price: pack.price })), has_more: false, next_cursor: null },
    }),
    listPaymentGateways: () => ({
      status: 200,
      body: { data: [...paymentGateways.values()].map((gateway) => ({ id: gateway.id, name: gateway.displayName, available: gateway.isConfigured() })) },
    }),
    listPayments: async ({ req }) => {
      const rows = await paymentRecords.listForOrganization(adminOf(req).org);
      const invoiceOf = await invoices.numbersOf(rows.filter((row) => row.status === 'succeeded').map((row) => row.reference));
      return { status: 200, body: { data: rows.map((row) => historyOf(row, invoiceOf.get(row.reference) ?? null)), has_more: false, next_cursor: null } };
    },
    paymentReceipt: async ({ params, req, res }) => {
      const row = await paymentRecords.find(params.reference);
      if (!row || row.organization_id !== adminOf(req).org || row.status !== 'succeeded' || !row.activated_at) throw new NotFoundError('No receipt: the payment is unknown or not paid');
      const payment = historyOf(row);
      const pdf = await renderReceipt(
        { ...payment, gateway_transaction_id: row.gateway_transaction_id ?? null, activated_at: payment.activated_at! },
        await paymentRecords.organizationName(row.organization_id),
      );
      res.status(200).set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="receipt-${row.reference}.pdf"`, 'Cache-Control': 'private, no-store' }).end(pdf);
    },
    checkout: async ({ body: { plan, gateway }, req }) => {
      const admin = adminOf(req);
      return { status: 201, body: await openCheckout(req, gateway, () => payments.checkout(admin.org, admin.sub, plan, gateway)) };
    },
    /** A credit pack for the organization (owners only, by the table: it spends the organization's money), the plan left as it is. */
    startCreditTopUp: async ({ body: { pack, gateway }, req }) => {
      const admin = adminOf(req);
      return { status: 201, body: await openCheckout(req, gateway, () => payments.checkoutTopUp(admin.org, admin.sub, pack, gateway)) };
    },
  };
}
