import express, { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow, type Knex, type Logger } from '@platform/service-kit';
import type { CertificateConfig } from '../../config';
import { PLANS } from '../plans/plans';
import { gatewayA } from './gateway-a';
import { gatewayB } from './gateway-b';
import type { PaymentGateway } from './payment-gateway';
import { receivePaymentWebhook } from './payment-webhooks';
import { paymentsRepository } from './payments.repository';
import { paymentsService } from './payments.service';

/**
 * `/webhooks/payments/{gateway}`: mounted before any JSON parser, so signatures are checked on the exact bytes received.
 */
export function paymentWebhookRoutes(db: Knex, config: CertificateConfig, logger: Logger): Router {
  const repository = paymentsRepository(db);
  const payments = paymentsService(db, repository);
  const gateways = new Map<string, PaymentGateway>([
    ['gateway-a', gatewayA(config)],
    ['gateway-b', gatewayB(config)],
  ]);
  const router = Router();
  router.post('/:gateway', express.raw({ type: () => true, limit: '100kb' }), async (req, res, next) => {
    const gateway = gateways.get(req.params.gateway as string); // a Map: `__proto__` is just an unknown name
    if (!gateway) return next();
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await receivePaymentWebhook(gateway, rawBody, req.headers, { repository, payments, logger });
    res.status(outcome.status).json(outcome.body);
  });
  return router;
}

const checkoutBody = z.object({ plan: z.string().min(1).max(50), gateway: z.enum(['gateway-a', 'gateway-b']) }).strict();

/** `/admin/v1/plans` and `/admin/v1/subscriptions/checkout`. */
export function subscriptionAdminRoutes(db: Knex): Router {
  const payments = paymentsService(db, paymentsRepository(db));
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
