import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { parseOrThrow, idParam } from '@platform/service-kit';
import { latLngSchema, phoneSchema, placeSchema } from '../../platform/geo';
import { imageDataUrlSchema } from '../../platform/image-data';
import { WEIGHT_TIERS } from '../../platform/pricing';
import { accountOf, requireScope, type PartnerAccount } from '../api-keys';
import type { Driver } from '../fleet';
import { jobListQuerySchema, jobReadRoutes, partnerJobRoutes } from '../jobs';
import { DELIVERY_STATUSES, isTerminalDelivery, type DeliveryStatus } from './delivery-status';
import type { DeliveryService } from './deliveries.service';
import type { DeliveryQuoteService } from './delivery-quotes';

const contactSchema = z.object({
  name: z.string().trim().min(1).max(200),
  phone: phoneSchema,
});
const pinSchema = z.string().regex(/^[0-9]{4,8}$/, 'must be a string of 4 to 8 digits');

export const createDeliverySchema = z.object({
  pickup: placeSchema,
  dropoff: placeSchema,
  sender: contactSchema,
  recipient: contactSchema,
  weight_tier: z.enum(WEIGHT_TIERS),
  security_pin: pinSchema.optional(),
  notes: z.string().trim().min(1).max(1000).optional(),
  quote_id: z.string().max(100).optional().meta({ description: 'A delivery quote (`dq_…`) still valid (15 minutes) for this pickup, drop-off and weight tier: books its fee.' }),
}).meta({
  id: 'NewDelivery',
  description: 'Without `security_pin` a PIN is generated and answered once; the courier needs it to hand the parcel over.',
  examples: [
    {
      pickup: { lat: 6.4541, lng: 3.3947, address: '12 Marina Road, Lagos Island' },
      dropoff: { lat: 6.4281, lng: 3.4219 },
      sender: { name: 'Ada Obi', phone: '+2348012345678' },
      recipient: { name: 'Tunde Bello', phone: '+2348098765432' },
      weight_tier: 'small',
      notes: 'Fragile: two glass jars',
    },
  ],
});

export const deliveryQuoteSchema = z.object({
  pickup: latLngSchema,
  dropoff: latLngSchema,
  weight_tier: z.enum(WEIGHT_TIERS),
}).meta({
  id: 'NewDeliveryQuote',
  description: 'Book the quoted fee within 15 minutes with `quote_id` on `POST /api/v1/deliveries`, with the same pickup, drop-off and weight tier.',
  examples: [{ pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4281, lng: 3.4219 }, weight_tier: 'small' }],
});

const PHOTO_URL_MAX = 2048;
/** Proof images come inline in the JSON body (100 kB at most), so both together stay under it once base64-encoded. */
export const PROOF_PHOTO_MAX_BYTES = 48 * 1024;
export const PROOF_SIGNATURE_MAX_BYTES = 16 * 1024;

export const deliverSchema = z.object({
  pin: pinSchema,
  received_by: z.string().trim().min(1).max(200).optional(),
  photo_url: z
    .string()
    .max(PHOTO_URL_MAX)
    .refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:' && new URL(value).hostname !== '', 'must be an https:// URL')
    .optional(),
  photo: imageDataUrlSchema(PROOF_PHOTO_MAX_BYTES, 'A photo of the parcel at the door, at most 48 KiB: stored by the platform and shown on the delivered tracking page from its own origin.').optional(),
  signature: imageDataUrlSchema(PROOF_SIGNATURE_MAX_BYTES, 'The recipient\'s signature as an image, at most 16 KiB: stored and shown like `photo`.').optional(),
}).meta({ id: 'DeliveryHandover', examples: [{ pin: '4821', received_by: 'Tunde Bello', photo_url: 'https://photos.example/pod/4821.jpg' }] });

export const failSchema = z.object({ reason: z.string().trim().min(1).max(500) }).meta({ id: 'DeliveryFailure', examples: [{ reason: 'Recipient not reachable at the door' }] });

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
