import { z } from 'zod';
import { dateTime, integer } from '../../platform/schema-types';
import { SUBSCRIBABLE_EVENT_TYPES } from './webhook-events';
import { pageSchema } from '@platform/service-kit';

/** What the webhook-endpoints feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const webhookEventTypeResponse = z.enum(SUBSCRIBABLE_EVENT_TYPES).meta({ id: 'WebhookEventType', description: '`ride.location_updated` and `delivery.courier_location_updated` are opt-in: an endpoint registered without\n`events` gets every other type, and these only when it lists them.\n' });

/** An endpoint as every answer shows it, up to `disabled_reason` (a plain shape, spread so each answer keeps its own order). */
const webhookEndpointShape = {
  id: z.string().regex(/^whe_/),
  url: z.string(),
  events: z.array(webhookEventTypeResponse),
  description: z.string().nullable().optional(),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.string().nullable().optional(),
};

/** Whether the endpoint is live; the two answers differ only in whether they promise it. */
const endpointLivemode = z.boolean().meta({ description: 'false for an endpoint registered with a test-mode key: it receives test events only (and a live endpoint live events only).' });

/** When the secret a rotation replaced stops signing. */
const previousSecretExpiresAt = dateTime().nullable().meta({ description: 'Until then the rotated-away secret still signs beside the current one (24 h after a rotation); null when no overlap is running.' }).optional();

export const webhookEndpointResponse = z.object({
  ...webhookEndpointShape,
  livemode: endpointLivemode,
  previous_secret_expires_at: previousSecretExpiresAt,
  created_at: dateTime(),
  updated_at: dateTime().optional(),
}).meta({ id: 'WebhookEndpoint' });

export const createdWebhookEndpointResponse = z.object({
  ...webhookEndpointShape,
  livemode: endpointLivemode.optional(),
  previous_secret_expires_at: previousSecretExpiresAt,
  secret: z.string().regex(/^whsec_/).meta({ description: '`whsec_` + base64 of 32 random bytes.' }),
  created_at: dateTime(),
  updated_at: dateTime().optional(),
}).meta({ id: 'CreatedWebhookEndpoint', description: 'The endpoint plus its signing secret (shown this once).' });

export const webhookDeliveryResponse = z.object({
  id: z.string(),
  event_id: z.string().regex(/^evt_/),
  event_type: z.string().meta({ description: 'One of the subscribable event types, or `webhook.test` / `webhook_endpoint.disabled`.', examples: ['ride.completed','webhook.test'] }),
  endpoint_id: z.string().optional(),
  status: z.string().meta({ examples: ['pending','succeeded','failed'] }),
  attempts: integer().min(0),
  next_attempt_at: dateTime().nullable().optional(),
  last_status_code: integer().nullable().optional(),
  last_error: z.string().nullable().optional(),
  delivered_at: dateTime().nullable().optional(),
  created_at: dateTime(),
  payload: z.unknown().meta({ description: 'The request body every attempt sent: the event exactly as the endpoint received it.' }).optional(),
  attempt_log: z.array(z.object({
    attempt: integer().min(1),
    status_code: integer().nullable(),
    duration_ms: integer().nullable(),
    error: z.string().nullable(),
    response_body_excerpt: z.string().nullable().meta({ description: 'The first 1 kB of the answer.' }).optional(),
    request_headers: z.record(z.string(), z.string()).nullable().meta({ description: 'The headers sent (signatures included); null on attempts logged before headers were kept.' }).optional(),
    response_headers: z.record(z.string(), z.string()).nullable().meta({ description: 'The headers answered (names in lower case, at most 50, values cut at 512 characters); null when no answer came.' }).optional(),
    created_at: dateTime().optional(),
  })).optional(),
}).meta({ id: 'WebhookDelivery' });

export const listWebhookEndpointsResponse = pageSchema(webhookEndpointResponse);

export const recoverWebhookEventsResponse = z.object({
  endpoint_id: z.string().regex(/^whe_/),
  since: dateTime(),
  include_succeeded: z.boolean(),
  queued: integer().min(0),
});

export const listWebhookDeliveriesResponse = pageSchema(webhookDeliveryResponse);
