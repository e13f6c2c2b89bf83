import express, { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow, sendProblem, type Logger } from '@platform/service-kit';
import { PLANS } from '../plans/plans';
import type { PaymentGateway } from './payment-gateway';
import { receivePaymentWebhook } from './payment-webhooks';
import type { PaymentsRepository } from './payments.repository';
import type { PaymentsService } from './payments.service';

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

export const checkoutBody = z
  .object({ plan: z.string().min(1).max(50), gateway: z.enum(['gateway-a', 'gateway-b']) })
  .strict()
  .meta({ id: 'Checkout', examples: [{ plan: 'starter', gateway: 'gateway-a' }] });

/** `/admin/v1/plans` and `/admin/v1/subscriptions/checkout`. */
export function subscriptionAdminRoutes(payments: PaymentsService): Router {
  const router = Router();
  router.get('/plans', (_req, res) => {
    res.json({
      data: PLANS.map((plan) => ({ id: plan.id, name: plan.name, price: plan.price, credits: plan.credits })),
      has_more: false,
      next_cursor: null,
    });
  });
  router.post('/subscriptions/checkout', async (req, res) => {
    const { plan, gateway } = parseOrThrow(checkoutBody, req.body ?? {});
    res.status(201).json(await payments.checkout(req.admin!.org, req.admin!.sub, plan, gateway));
  });
  return router;
}
