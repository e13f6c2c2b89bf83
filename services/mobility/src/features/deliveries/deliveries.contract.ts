import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { createDeliverySchema, deliveryListQuerySchema, deliveryQuoteSchema } from './deliveries.schema';
import { createdDeliveryResponse, deliveryQuoteResponse, deliveryResponse, listDeliveriesResponse, requestDelivery422Response } from './deliveries.schema';
import { partnerScope } from '../../platform/partner-security';
import { withAdminMode } from '../partners';
import { adminJobListAnswers, adminJobRead, jobCancelAnswers, jobEventStream, jobReadHeaders, jobStreamAnswers, jobWithEtag, partnerJobListAnswers, partnerJobReadAnswers } from '../jobs';

/** The deliveries operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const deliveriesContract = [
  route({
    operationId: 'requestDelivery',
    method: 'post',
    path: '/api/v1/deliveries',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:write'),
    body: createDeliverySchema,
    idempotent: true,
    responses: {
      201: createdDeliveryResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      409: answers.IdempotencyConflict,
      415: answers.UnsupportedMediaType,
      422: { content: { 'application/problem+json': requestDelivery422Response } },
      429: answers.RateLimited,
    },
  }),
  route({
    operationId: 'listDeliveries',
    method: 'get',
    path: '/api/v1/deliveries',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:read'),
    query: deliveryListQuerySchema,
    responses: {
      200: listDeliveriesResponse,
      ...partnerJobListAnswers,
    },
  }),
  route({
    operationId: 'quoteDelivery',
    method: 'post',
    path: '/api/v1/deliveries/quotes',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:write'),
    body: deliveryQuoteSchema,
    responses: {
      201: deliveryQuoteResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
      429: answers.RateLimited,
    },
  }),
  route({
    operationId: 'getDelivery',
    method: 'get',
    path: '/api/v1/deliveries/{id}',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:read'),
    params: z.object({ id: z.string() }),
    headers: jobReadHeaders,
    responses: {
      200: jobWithEtag(deliveryResponse),
      ...partnerJobReadAnswers,
    },
  }),
  route({
    operationId: 'streamDelivery',
    method: 'get',
    path: '/api/v1/deliveries/{id}/stream',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:read'),
    cost: 'stream',
    params: z.object({ id: z.string() }),
    responses: {
      200: jobEventStream('Delivery'),
      ...jobStreamAnswers,
    },
  }),
  route({
    operationId: 'cancelDelivery',
    method: 'post',
    path: '/api/v1/deliveries/{id}/cancel',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:write'),
    params: z.object({ id: z.string() }),
    responses: {
      200: deliveryResponse,
      ...jobCancelAnswers,
    },
  }),
  route({
    operationId: 'adminListDeliveries',
    method: 'get',
    path: '/admin/v1/deliveries',
    tags: ['Admin trips'],
    security: [{ adminJwt: [] }],
    query: withAdminMode(deliveryListQuerySchema),
    responses: {
      200: listDeliveriesResponse,
      ...adminJobListAnswers,
    },
  }),
  route({
    operationId: 'adminGetDelivery',
    method: 'get',
    path: '/admin/v1/deliveries/{id}',
    ...adminJobRead(deliveryResponse),
  }),
] as const;
