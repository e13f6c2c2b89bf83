import { z } from 'zod';
import { dateTime, integer } from '../../platform/schema-types';
import { SUBSCRIBABLE_EVENT_TYPES } from './webhook-events';
import { pageQueryFields, pageQuerySchema, pageSchema } from '@platform/service-kit/pagination';

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

/** One window of an endpoint's delivery statistics, counted from its attempts (each HTTP request sent). */
const endpointStatsWindow = z.object({
  window: z.enum(['24h', '7d']).meta({ description: 'The last 24 hours or the last 7 days, up to `computed_at`.' }),
  since: dateTime(),
  messages: integer().min(0).meta({ description: 'Messages with at least one attempt in the window.' }),
  attempts: integer().min(0),
  succeeded: integer().min(0).meta({ description: 'Attempts answered with a 2xx status.' }),
  failed: integer().min(0).meta({ description: 'Attempts answered otherwise, or not answered (timeout, refused connection).' }),
  success_rate: z.number().min(0).max(1).nullable().meta({ description: '`succeeded / attempts`; null when there was no attempt.' }),
  latency_ms: z.object({
    p50: z.number().nullable(),
    p95: z.number().nullable(),
  }).meta({ description: 'Median and 95th percentile of the attempts\' durations (continuous percentiles); null when there was no attempt.' }),
});

export const webhookEndpointStatsResponse = z.object({
  endpoint_id: z.string().regex(/^whe_/),
  computed_at: dateTime(),
  windows: z.array(endpointStatsWindow),
}).meta({ id: 'WebhookEndpointStats' });

/** What the webhook-endpoints operations read: their bodies and queries. */

export const registerSchema = z.object({
  url: z.string().trim().min(1, 'is required').max(2048, 'must be at most 2048 characters'),
  events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES, { message: `must be one of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}` })).min(1, 'must list at least one event').optional(),
  description: z.string().max(500).nullable().optional(),
}).meta({
  id: 'NewWebhookEndpoint',
  description: '`url` must be `https://` and must not resolve to a loopback, private or link-local address; `events` defaults to every event type except the opt-in location events (`ride.location_updated`, `delivery.courier_location_updated`), which an endpoint receives only when it lists them.',
  examples: [{ url: 'https://93.184.215.14/hooks/mobility', events: ['ride.completed', 'delivery.delivered'], description: 'Production receiver' }],
});

export const updateEndpointSchema = z
  .object({
    url: z.string().trim().min(1, 'is required').max(2048, 'must be at most 2048 characters').optional(),
    events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES, { message: `must be one of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}` })).min(1, 'must list at least one event').optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'must change at least one of url, events, description, enabled' })
  .meta({
    id: 'WebhookEndpointUpdate',
    description: 'Only the fields given change. `enabled: true` re-enables a disabled endpoint; `enabled: false` disables it.',
    examples: [{ events: ['ride.completed', 'ride.cancelled'], description: 'Production receiver', enabled: true }],
  });

export const recoverSchema = z
  .object({
    since: z.iso
      .datetime({ offset: true, message: 'must be an ISO-8601 date-time' })
      .transform((value) => new Date(value))
      .refine((since) => since.getTime() <= Date.now(), 'must not be in the future'),
    include_succeeded: z.boolean().optional(),
  })
  .strict()
  .meta({
    id: 'WebhookRecovery',
    description: 'Re-send every event since `since` (events are kept 30 days, so an earlier time means all of them) that this endpoint receives and did not acknowledge; `include_succeeded: true` re-sends acknowledged ones too.',
    examples: [{ since: '2026-11-25T08:00:00Z' }],
  });

export const exampleEventSchema = z
  .object({
    event_type: z.enum(SUBSCRIBABLE_EVENT_TYPES, { message: `must be one of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}` }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The example object the event carries (the event catalog\'s example for this type).' }),
  })
  .strict()
  .meta({
    id: 'WebhookExampleEvent',
    description: 'An event of this type with this example `data`, sent to one endpoint and marked `"example": true`.',
    examples: [{ event_type: 'ride.completed', data: { id: 'ride_01HZX3Q8M4', status: 'completed' } }],
  });

export const rotateSecretSchema = z
  .object({
    expire_previous_now: z
      .boolean()
      .default(false)
      .meta({ description: '`true` stops the previous secret signing at once (a leaked secret); default `false` keeps it signing beside the new one for 24 hours.' }),
  })
  .strict()
  .meta({
    id: 'WebhookSecretRotation',
    description: 'Optional (no body: the 24-hour overlap). As Stripe\'s "expire now": `expire_previous_now: true` ends the previous secret immediately.',
    examples: [{ expire_previous_now: true }],
  });

export const endpointListQuerySchema = pageQuerySchema({ id: 'PageQuery', defaultLimit: 20 });

const instant = (description: string) => z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional().meta({ description });

/** The message log's page, narrowed by event type, status and creation time (the filters stay the same across pages). */
export const messageListQuerySchema = z
  .object({
    event_type: z.string().trim().min(1).max(100).regex(/^[a-z_]+\.[a-z_.]+$/, 'must be an event type such as ride.completed').optional().meta({ description: 'Only messages of this event type.' }),
    status: z.enum(['pending', 'succeeded', 'failed']).optional().meta({ description: 'Only messages in this state.' }),
    created_after: instant('Only messages created strictly after this time.'),
    created_before: instant('Only messages created strictly before this time.'),
    ...pageQueryFields({ defaultLimit: 20 }),
  })
  .meta({ id: 'WebhookMessageListQuery', examples: [{ event_type: 'ride.completed', status: 'failed', created_after: '2026-11-01T00:00:00Z', limit: 20 }] });
