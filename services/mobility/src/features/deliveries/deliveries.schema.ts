import { z } from 'zod';
import { latLngResponse, latLngSchema, personResponse, phoneSchema, placeResponse, placeSchema } from '../../platform/geo';
import { imageDataUrlSchema } from '../../platform/image-data';
import { moneyResponse, WEIGHT_TIERS, weightTierResponse } from '../../platform/pricing';
import { assignedDriverResponse, jobListQuerySchema } from '../jobs/jobs.schema';
import { telemetryResponse } from '../fleet/fleet.schema';
import { pageSchema } from '@platform/service-kit/pagination';
import { problemSchema, validationProblemSchema } from '@platform/service-kit/problem-schema';
import { dateTime, integer } from '../../platform/schema-types';
import { DELIVERY_STATUSES } from './delivery-status';

/** What the deliveries feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const deliveryStatusResponse = z.enum(DELIVERY_STATUSES).meta({ id: 'DeliveryStatus' });

export const proofOfDeliveryResponse = z.object({
  pin_verified: z.literal(true),
  received_by: z.string().nullable(),
  photo_url: z.string().nullable(),
  delivered_at: dateTime(),
  location: latLngResponse.nullable(),
}).meta({ id: 'ProofOfDelivery' });

/** A delivery as every answer shows it, up to `sequence` (a plain shape, so the created answer can put `security_pin` before the timestamps). */
const deliveryShape = {
  id: z.string().regex(/^dlv_/),
  status: deliveryStatusResponse,
  weight_tier: weightTierResponse,
  fee: moneyResponse,
  sender: personResponse,
  recipient: personResponse,
  pickup: placeResponse,
  dropoff: placeResponse,
  notes: z.string().nullable().optional(),
  courier: assignedDriverResponse.nullable(),
  courier_location: telemetryResponse.nullable(),
  proof_of_delivery: proofOfDeliveryResponse.nullable(),
  failure_reason: z.string().nullable().meta({ description: "Why the delivery failed: the courier's reason, `no_couriers_available`, or `sandbox_expired` (a picked-up test-mode delivery nobody moved for `SANDBOX_JOB_TTL_S`)." }).optional(),
  cancelled_by: z.literal(['partner', 'system', null]).meta({ type: ['string','null'] }).meta({ description: '`system`: a test-mode delivery nobody moved for `SANDBOX_JOB_TTL_S` (24 h) was ended by the sandbox sweep.' }).optional(),
  tracking_url: z.url().nullable().meta({ description: "The public tracking page to send the recipient (`{PUBLIC_BASE_URL}/track/{token}`, no key needed): status, courier's\nfirst name and vehicle, live position. The same link in every answer and event; `null` only for deliveries made\nbefore tracking existed.\n", example: 'https://api.partner-platform.example/track/q3X9kP2mZ7vR4tYw8bN6cD1e' }),
  livemode: z.boolean().meta({ description: 'false for test-mode data (created with an `mk_test_` key): never dispatched to real drivers, moved only by the sandbox.' }),
  sequence: integer().optional(),
};

export const deliveryResponse = z.object({
  ...deliveryShape,
  created_at: dateTime(),
  updated_at: dateTime(),
}).meta({ id: 'Delivery' });

export const deliveryQuoteResponse = z.object({
  quote_id: z.string().regex(/^dq_/),
  weight_tier: z.enum(['small', 'medium', 'large', 'xlarge']),
  fee: moneyResponse,
  distance_meters: integer().min(0),
  pickup_eta_seconds: integer().nullable().meta({ description: "The nearest free courier of the weight tier's vehicle to the pickup; null when none is near. A test-mode key sees the sandbox courier only: 180 s." }),
  dropoff_eta_seconds: integer().nullable().meta({ description: "The pickup ETA plus the trip at the courier vehicle's speed; null when the pickup ETA is." }),
  expires_at: dateTime(),
  livemode: z.boolean().meta({ description: 'false for a test-mode quote: only a test-mode delivery can book it.' }),
}).meta({ id: 'DeliveryQuote', description: 'A fee and ETAs for one pickup, drop-off and weight tier; `quote_id` books the fee until `expires_at` (15 minutes).' });

export const createdDeliveryResponse = z.object({
  ...deliveryShape,
  security_pin: z.string().regex(/^[0-9]{4,8}$/).optional(),
  created_at: dateTime(),
  updated_at: dateTime(),
}).meta({ id: 'CreatedDelivery', description: 'The delivery as `GET` shows it, plus `security_pin` when the service generated it (shown this once).' });

export const requestDelivery422Response = z.union([validationProblemSchema, problemSchema]);

export const listDeliveriesResponse = pageSchema(deliveryResponse);

export const pinRefusedResponse = z.object({
  type: z.url().meta({ description: 'The documentation URL of the code: `ERROR_DOCS_BASE_URL` followed by the code (default https://docs.partner-platform.example/errors/<code>).' }),
  title: z.string().meta({ description: "The HTTP status's reason phrase." }),
  status: z.int().min(400).max(599).meta({ description: 'The HTTP status of this answer.' }),
  detail: z.string().meta({ description: 'Text for a person about this occurrence.' }),
  error: z.string().meta({ description: 'The same text as `detail`, kept for clients written before Problem Details.' }),
  code: z.enum(['invalid_pin', 'pin_locked']),
  remaining_attempts: z.int().min(0).max(5),
});

/** What a partner and a courier send: the request bodies the routes parse with (the description's request schemas). */

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
