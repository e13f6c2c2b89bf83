import { z } from 'zod';
import { latLngResponse, personResponse, placeResponse } from '../../platform/geo';
import { moneyResponse, weightTierResponse } from '../../platform/pricing';
import { assignedDriverResponse } from '../jobs/jobs.schema';
import { telemetryResponse } from '../fleet/fleet.schema';
import { problemSchema, validationProblemSchema } from '@platform/service-kit';
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

export const deliveryResponse = z.object({
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
  security_pin: z.string().regex(/^[0-9]{4,8}$/).optional(),
  created_at: dateTime(),
  updated_at: dateTime(),
}).meta({ id: 'CreatedDelivery', description: 'The delivery as `GET` shows it, plus `security_pin` when the service generated it (shown this once).' });

export const requestDelivery422Response = z.union([validationProblemSchema, problemSchema]);

export const listDeliveriesResponse = z.object({
  data: z.array(deliveryResponse),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const pinRefusedResponse = z.object({
  type: z.url().meta({ description: 'The documentation URL of the code: `ERROR_DOCS_BASE_URL` followed by the code (default https://docs.partner-platform.example/errors/<code>).' }),
  title: z.string().meta({ description: "The HTTP status's reason phrase." }),
  status: z.int().min(400).max(599).meta({ description: 'The HTTP status of this answer.' }),
  detail: z.string().meta({ description: 'Text for a person about this occurrence.' }),
  error: z.string().meta({ description: 'The same text as `detail`, kept for clients written before Problem Details.' }),
  code: z.enum(['invalid_pin', 'pin_locked']),
  remaining_attempts: z.int().min(0).max(5),
});
