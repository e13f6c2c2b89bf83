import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers, headers } from '../../platform/responses';
import { deliveryListQuerySchema } from './deliveries.routes';
import { createDeliverySchema, deliveryQuoteSchema } from './deliveries.schema';
import { createdDeliveryResponse, deliveryQuoteResponse, deliveryResponse, listDeliveriesResponse, requestDelivery422Response } from './deliveries.schema';
import { partnerScope } from '../../platform/partner-security';
import { adminModeQuery, withAdminMode } from '../partners';

/** The deliveries operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const deliveriesContract = [
  route({
    operationId: 'requestDelivery',
    method: 'post',
    path: '/api/v1/deliveries',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:write'),
    body: createDeliverySchema,
    responses: {
      201: createdDeliveryResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      409: answers.IdempotencyConflict,
      415: answers.UnsupportedMediaType,
      422: { content: { 'application/problem+json': requestDelivery422Response } },
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
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      422: answers.ValidationFailed,
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
    },
  }),
  route({
    operationId: 'getDelivery',
    method: 'get',
    path: '/api/v1/deliveries/{id}',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:read'),
    params: z.object({ id: z.string() }),
    headers: z.object({ 'If-None-Match': z.string().meta({ examples: ["\"q9Zb1x7dM0y3\""] }).optional() }),
    responses: {
      200: { headers: { 'ETag': headers['ETag'] }, content: { 'application/json': deliveryResponse } },
      304: answers.NotModified,
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'streamDelivery',
    method: 'get',
    path: '/api/v1/deliveries/{id}/stream',
    tags: ['Deliveries'],
    security: partnerScope('deliveries:read'),
    params: z.object({ id: z.string() }),
    responses: {
      200: { headers: { 'Cache-Control': { schema: z.string() }, 'X-Accel-Buffering': { schema: z.string() } }, content: { 'text/event-stream': z.string().meta({ description: '`event: status` → `data:` is a `Delivery`; `event: location` → `data:` is a `Telemetry`.\n' }) } },
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      404: answers.NotFound,
      429: answers.TooManyStreams,
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
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      404: answers.NotFound,
      409: answers.InvalidTransition,
      415: answers.UnsupportedMediaType,
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
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminGetDelivery',
    method: 'get',
    path: '/admin/v1/deliveries/{id}',
    tags: ['Admin trips'],
    security: [{ adminJwt: [] }],
    params: z.object({ id: z.string() }),
    headers: z.object({ 'If-None-Match': z.string().meta({ examples: ["\"q9Zb1x7dM0y3\""] }).optional() }),
    query: adminModeQuery,
    responses: {
      200: { headers: { 'ETag': headers['ETag'] }, content: { 'application/json': deliveryResponse } },
      304: answers.NotModified,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      404: answers.NotFound,
    },
  }),
] as const;
