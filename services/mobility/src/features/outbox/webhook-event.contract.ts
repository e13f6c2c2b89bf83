import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { webhookEventResponse } from './events.schema';
import { webhookEventTypeResponse } from '../webhook-endpoints/webhook-endpoints.schema';

/**
 * The request the service sends to a partner's endpoint (the description's `webhooks` section): its headers, the event
 * as body, and what the endpoint may answer. `path` is the webhook's name in the description.
 */
export const webhookEventContract = [
  route({
    operationId: 'receiveMobilityEvent',
    method: 'post',
    path: 'rideOrDeliveryEvent',
    tags: ['Webhooks'],
    security: [],
    headers: z.object({ 'X-Service-Signature': z.string().regex(/^sha256=[0-9a-f]{64}$/), 'X-Service-Event-Id': z.string(), 'X-Service-Event-Type': z.enum(webhookEventTypeResponse.options), 'X-Service-Timestamp': z.string(), 'X-Service-Delivery-Attempt': z.string(), 'webhook-id': z.string(), 'webhook-timestamp': z.string(), 'webhook-signature': z.string() }),
    body: webhookEventResponse,
    responses: {
      200: null,
      400: answers.InvalidJson,
    },
  }),
] as const;
