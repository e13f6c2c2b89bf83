import express, { Router, type Request } from 'express';
import { ApiError, NotFoundError, parseOrThrow, requireRole, sendProblem, type Logger, adminOf } from '@platform/service-kit';
import { CREDIT_PACKS } from '../plans';
import { PLANS } from '../plans';
import type { PaymentGateway } from './payment-gateway';
import { receivePaymentWebhook } from './payment-webhooks';
import type { PaymentsRepository } from './payments.repository';
import { presentPayment } from './payments.presenter';
import type { PaymentsService } from './payments.service';
import type { PaymentRow } from './payments.repository';
import { oneMonthAfter, PLAN_PERIOD, renderReceipt } from './receipts';
import { checkoutBody, topUpBody } from './payments.schema';

export interface PaymentWebhookDeps {
  /** By gateway name; a Map, so `__proto__` is just an unknown name. */
  paymentGateways: Map<string, PaymentGateway>;
  paymentRecords: PaymentsRepository;
  payments: PaymentsService;
}

/**
 * `/webhooks/payments/{gateway}`: mounted before any JSON parser, so signatures are checked on the exact bytes received.
 */
export function paymentWebhookRoutes({ paymentGateways: gateways, paymentRecords: repository, payments }: PaymentWebhookDeps, logger: Logger): Router {
  const router = Router();
  router.post('/:gateway', express.raw({ type: () => true, limit: '100kb' }), async (req, res, next) => {
    const gateway = gateways.get(req.params.gateway as string); // a Map: `__proto__` is just an unknown name
    if (!gateway) return next();
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await receivePaymentWebhook(gateway, rawBody, req.headers, { repository, payments, logger });
    const { error, code, ...extra } = outcome.body;
    if (outcome.status >= 400 && typeof error === 'string' && typeof code === 'string') return sendProblem(res, outcome.status, code, error, extra);
    res.status(outcome.status).json(outcome.body);
  });
  return router;
}



export interface SubscriptionRouteDeps {
  payments: PaymentsService;
  paymentRecords: PaymentsRepository;
  paymentGateways: Map<string, PaymentGateway>;
  /** The dashboard's base (`<PUBLIC_BASE_URL>/dashboard`): the gateway's page sends the payer back to its billing page. */
  dashboardUrl: string;
  /** DASHBOARD_ORIGINS: a checkout started from one of these returns there (the dashboard the payer came from). */
  dashboardOrigins: string[];
}

/**
 * `/admin/v1/plans`, `/admin/v1/credit-packs`, `/admin/v1/payment-gateways`, `/admin/v1/payments` (billing history and
 * receipts), and the two checkouts: `/admin/v1/subscriptions/checkout` (a plan) and `/admin/v1/credits/top-ups` (a pack).
 */
export function subscriptionAdminRoutes({ payments, paymentRecords, paymentGateways, dashboardUrl, dashboardOrigins }: SubscriptionRouteDeps): Router {
  const router = Router();
  router.get('/plans', (_req, res) => {
    res.json({
      data: PLANS.map((plan) => ({ id: plan.id, name: plan.name, price: plan.price, credits: plan.credits })),
      has_more: false,
      next_cursor: null,
    });
  });
  router.get('/credit-packs', (_req, res) => {
    res.json({ data: CREDIT_PACKS.map((pack) => ({ id: pack.id, name: pack.name, credits: pack.credits, price: pack.price })), has_more: false, next_cursor: null });
  });
  /** Where the payer comes back: the dashboard origin the checkout came from when it is one of ours, else PUBLIC_BASE_URL's. */
  const returnBase = (origin: string | undefined) => (origin && dashboardOrigins.includes(origin) ? `${origin}/dashboard` : dashboardUrl);
  router.get('/payment-gateways', (_req, res) => {
    res.json({ data: [...paymentGateways.values()].map((gateway) => ({ id: gateway.id, name: gateway.displayName, available: gateway.isConfigured() })) });
  });
  /** A payment as billing history: its gateway's name and, once paid, when; a paid plan's period too (a top-up has none). */
  const historyOf = (row: PaymentRow) => {
    const activated = row.status === 'succeeded' && row.activated_at ? row.activated_at : null;
    const planPeriod = activated && row.kind === 'plan_upgrade' ? activated : null;
    return {
      ...presentPayment(row),
      gateway_name: paymentGateways.get(row.gateway)?.displayName ?? row.gateway,
      activated_at: activated?.toISOString() ?? null,
      period: planPeriod ? PLAN_PERIOD : null,
      renews_at: planPeriod ? oneMonthAfter(planPeriod).toISOString() : null,
    };
  };
  router.get('/payments', async (req, res) => {
    res.json({ data: (await paymentRecords.listForOrganization(adminOf(req).org)).map(historyOf), has_more: false, next_cursor: null });
  });
  router.get('/payments/:reference/receipt', async (req, res) => {
    const row = await paymentRecords.find(String(req.params.reference));
    if (!row || row.organization_id !== adminOf(req).org || row.status !== 'succeeded' || !row.activated_at) throw new NotFoundError('No receipt: the payment is unknown or not paid');
    const payment = historyOf(row);
    const pdf = await renderReceipt(
      { ...payment, gateway_transaction_id: row.gateway_transaction_id ?? null, activated_at: payment.activated_at! },
      await paymentRecords.organizationName(row.organization_id),
    );
    res.status(200).set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="receipt-${row.reference}.pdf"`, 'Cache-Control': 'private, no-store' }).end(pdf);
  });
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
  router.post('/subscriptions/checkout', async (req, res) => {
    const { plan, gateway } = parseOrThrow(checkoutBody, req.body ?? {});
    res.status(201).json(await openCheckout(req, gateway, () => payments.checkout(adminOf(req).org, adminOf(req).sub, plan, gateway)));
  });
  /** A credit pack for the organization (owners: it spends the organization's money), the plan left as it is. */
  router.post('/credits/top-ups', requireRole('owner'), async (req, res) => {
    const { pack, gateway } = parseOrThrow(topUpBody, req.body ?? {});
    res.status(201).json(await openCheckout(req, gateway, () => payments.checkoutTopUp(adminOf(req).org, adminOf(req).sub, pack, gateway)));
  });
  return router;
}
