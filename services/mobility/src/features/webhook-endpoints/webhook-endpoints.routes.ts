import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { pageQueryFields, pageQuerySchema, parseOrThrow } from '@platform/service-kit';
import { SUBSCRIBABLE_EVENT_TYPES } from './webhook-events';
import type { WebhookEndpointService } from './webhook-endpoints.service';
import type { PartnerAccount } from '../api-keys';

export interface WebhookEndpointRoutesDeps {
  service: WebhookEndpointService;
  /** Which partner, in which mode (live or test), the (already authenticated) request acts for. */
  accountOf: (req: Request) => PartnerAccount;
  /** Who may change endpoints (create, update, delete, rotate, test, recover, retry); reads are open to every caller. */
  requireChange?: RequestHandler;
}

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

export const pageSchema = pageQuerySchema({ id: 'PageQuery', defaultLimit: 20 });

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

/** `/api/v1/webhooks`: mounted behind API-key authentication with the `webhooks:manage` scope. */
export function webhookEndpointRoutes({ service, accountOf, requireChange = (_req, _res, next) => next() }: WebhookEndpointRoutesDeps): Router {
  const router = Router();
  // Reads (GET) are open to every caller that got here; every other method is a change.
  router.use((req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : requireChange(req, res, next)));

  router.post('/', async (req, res) => {
    const input = parseOrThrow(registerSchema, req.body);
    res.status(201).json(await service.register(accountOf(req), input));
  });

  router.get('/', async (req, res) => {
    res.json(await service.list(accountOf(req), parseOrThrow(pageSchema, req.query)));
  });

  router.get('/:id', async (req, res) => {
    res.json(await service.get(accountOf(req), req.params.id));
  });

  router.patch('/:id', async (req, res) => {
    const input = parseOrThrow(updateEndpointSchema, req.body ?? {});
    res.json(await service.update(accountOf(req), req.params.id, input));
  });

  router.post('/:id/rotate-secret', async (req, res) => {
    const { expire_previous_now } = parseOrThrow(rotateSecretSchema, req.body ?? {});
    res.json(await service.rotateSecret(accountOf(req), req.params.id, { expirePreviousNow: expire_previous_now }));
  });

  router.post('/:id/test', async (req, res) => {
    res.status(202).json(await service.sendTestEvent(accountOf(req), req.params.id));
  });

  router.post('/:id/recover', async (req, res) => {
    const input = parseOrThrow(recoverSchema, req.body);
    res.status(202).json(await service.recover(accountOf(req), req.params.id, input));
  });

  router.delete('/:id', async (req, res) => {
    await service.remove(accountOf(req), req.params.id);
    res.status(204).end();
  });

  router.get('/:id/deliveries', async (req, res) => {
    const query = parseOrThrow(messageListQuerySchema, req.query);
    const when = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
    res.json(
      await service.listWebhookMessages(accountOf(req), req.params.id, {
        limit: query.limit,
        cursor: query.cursor,
        eventType: query.event_type,
        status: query.status,
        createdAfter: when(query.created_after),
        createdBefore: when(query.created_before),
      }),
    );
  });

  router.post('/:id/deliveries/:delivery_id/retry', async (req, res) => {
    res.status(202).json(await service.retryWebhookMessage(accountOf(req), req.params.id, req.params.delivery_id));
  });

  router.post('/:id/deliveries/:delivery_id/replay', async (req, res) => {
    res.status(202).json(await service.replayWebhookMessage(accountOf(req), req.params.id, req.params.delivery_id));
  });

  return router;
}
