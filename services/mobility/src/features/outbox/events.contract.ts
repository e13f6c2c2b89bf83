import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { eventListQuerySchema, listEventsResponse } from './events.schema';
import { partnerScope } from '../../platform/partner-security';
import { withAdminMode } from '../partners';

/** The events operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const eventsContract = [
  route({
    operationId: 'listEvents',
    method: 'get',
    path: '/api/v1/events',
    tags: ['Webhooks'],
    security: partnerScope('webhooks:manage'),
    query: eventListQuerySchema,
    responses: {
      200: listEventsResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      422: answers.ValidationFailed,
      429: answers.RateLimited,
    },
  }),
  route({
    operationId: 'adminListEvents',
    method: 'get',
    path: '/admin/v1/events',
    tags: ['Admin webhooks'],
    security: [{ adminJwt: [] }],
    query: withAdminMode(eventListQuerySchema),
    responses: {
      200: listEventsResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
] as const;
