import { Router, type Request, type RequestHandler } from 'express';
import { parseOrThrow, idParam } from '@platform/service-kit';
import { accountOf, requireScope, type PartnerAccount } from '../api-keys';
import type { Driver } from '../fleet';
import { jobListQuerySchema, jobReadRoutes, partnerJobRoutes } from '../jobs';
import { DELIVERY_STATUSES, isTerminalDelivery, type DeliveryStatus } from './delivery-status';
import { createDeliverySchema, deliverSchema, deliveryQuoteSchema, failSchema } from './deliveries.schema';
import type { DeliveryService } from './deliveries.service';
import type { DeliveryQuoteService } from './delivery-quotes';

export const deliveryListQuerySchema = jobListQuerySchema({ id: 'DeliveryListQuery', statuses: DELIVERY_STATUSES, idPrefix: 'dlv' });

export function deliveryId(value: unknown): string {
  return idParam('dlv', value, 'Delivery not found');
}

/** `/api/v1/deliveries` (mounted behind API key authentication). */
export function deliveryRoutes(deliveries: DeliveryService, quotes: DeliveryQuoteService): Router {
  const router = Router();
  router.post('/quotes', requireScope('deliveries:write'), async (req, res) => {
    res.status(201).json(await quotes.createQuote(accountOf(req), parseOrThrow(deliveryQuoteSchema, req.body)));
  });
  return router.use(partnerJobRoutes({
    requireRead: requireScope('deliveries:read'),
    requireWrite: requireScope('deliveries:write'),
    accountOf,
    createSchema: createDeliverySchema,
    parseId: deliveryId,
    create: deliveries.createDelivery,
    get: deliveries.getDelivery,
    listSchema: deliveryListQuerySchema,
    list: deliveries.listDeliveries,
    cancel: deliveries.cancelByPartner,
  }));
}

/** `/admin/v1/deliveries`: the organization's deliveries (list and one delivery), for any admin role, in the mode `accountOf` reads. */
export function deliveryAdminRoutes(deliveries: DeliveryService, accountOf: (req: Request) => PartnerAccount): Router {
  const anyRole: RequestHandler = (_req, _res, next) => next();
  return jobReadRoutes({ requireRead: anyRole, accountOf, parseId: deliveryId, get: deliveries.getDelivery, listSchema: deliveryListQuerySchema, list: deliveries.listDeliveries });
}

/** What `GET /api/v1/deliveries/{id}/stream` (deliveries:read, telemetry's stream routes) needs of deliveries: the delivery's Server-Sent Events until it ends. */
export function deliveryStreams(deliveries: DeliveryService) {
  return { readScope: 'deliveries:read' as const, parseId: deliveryId, get: deliveries.getDelivery, isTerminal: (status: string) => isTerminalDelivery(status as DeliveryStatus) };
}

/** `/driver/v1/deliveries` (mounted behind driver authentication, which `driverOf` reads): the courier's moves. */
export function courierDeliveryRoutes(deliveries: DeliveryService, driverOf: (req: Request) => Driver): Router {
  const router = Router();

  router.post('/:id/pickup', async (req, res) => {
    res.json(await deliveries.pickUp(driverOf(req), deliveryId(req.params.id)));
  });

  router.post('/:id/deliver', async (req, res) => {
    const id = deliveryId(req.params.id);
    res.json(await deliveries.deliver(driverOf(req), id, parseOrThrow(deliverSchema, req.body ?? {})));
  });

  router.post('/:id/fail', async (req, res) => {
    const id = deliveryId(req.params.id);
    const { reason } = parseOrThrow(failSchema, req.body ?? {});
    res.json(await deliveries.fail(driverOf(req), id, reason));
  });

  return router;
}
