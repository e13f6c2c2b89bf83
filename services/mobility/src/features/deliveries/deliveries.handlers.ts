import type { Request } from 'express';
import { idParam } from '@platform/service-kit/ids';
import type { Handlers } from '@platform/service-kit/operations';
import { accountOf } from '../api-keys';
import type { Driver } from '../fleet';
import { jobReadHandlers, partnerJobHandlers } from '../jobs';
import { adminAccountOf } from '../partners';
import { jobStreamHandler, type JobTelemetry } from '../telemetry';
import type { courierContract } from './courier.contract';
import type { deliveriesContract } from './deliveries.contract';
import type { DeliveryService } from './deliveries.service';
import type { DeliveryQuoteService } from './delivery-quotes';
import { isTerminalDelivery, type DeliveryStatus } from './delivery-status';

/** A delivery's id from a path: a malformed one is a 404, like an unknown one. */
export function deliveryId(value: unknown): string {
  return idParam('dlv', value, 'Delivery not found');
}

/**
 * The deliveries operations: the partner's (a quote, create with an optional Idempotency-Key, list, one delivery, its
 * event stream, cancel) and the dashboard's reads, for any admin role, in the mode its query asks for.
 */
export function deliveryHandlers(deliveries: DeliveryService, quotes: DeliveryQuoteService, telemetry: JobTelemetry): Handlers<typeof deliveriesContract> {
  const reads = { parseId: deliveryId, get: deliveries.getDelivery, list: deliveries.listDeliveries };
  const partner = partnerJobHandlers({ ...reads, accountOf, create: deliveries.createDelivery, cancel: deliveries.cancelByPartner });
  const admin = jobReadHandlers({ ...reads, accountOf: adminAccountOf });
  return {
    requestDelivery: partner.create,
    listDeliveries: partner.list,
    quoteDelivery: async ({ body, req }) => ({ status: 201, body: await quotes.createQuote(accountOf(req), body) }),
    getDelivery: partner.get,
    streamDelivery: jobStreamHandler({ parseId: deliveryId, get: deliveries.getDelivery, isTerminal: (status) => isTerminalDelivery(status as DeliveryStatus) }, telemetry),
    cancelDelivery: partner.cancel,
    adminListDeliveries: admin.list,
    adminGetDelivery: admin.get,
  };
}

type CourierOperations = Pick<Handlers<typeof courierContract>, 'courierPickUp' | 'courierDeliver' | 'courierFail'>;

/** The courier's moves of its delivery (`/driver/v1/deliveries/{id}/…`, behind the driver's token, which `driverOf` reads). */
export function courierDeliveryHandlers(deliveries: DeliveryService, driverOf: (req: Request) => Driver): CourierOperations {
  return {
    courierPickUp: async ({ params, req }) => ({ status: 200, body: await deliveries.pickUp(driverOf(req), deliveryId(params.id)) }),
    courierDeliver: async ({ params, body, req }) => ({ status: 200, body: await deliveries.deliver(driverOf(req), deliveryId(params.id), body) }),
    courierFail: async ({ params, body, req }) => ({ status: 200, body: await deliveries.fail(driverOf(req), deliveryId(params.id), body.reason) }),
  };
}
