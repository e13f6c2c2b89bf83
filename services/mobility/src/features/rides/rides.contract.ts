import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers, headers } from '../../platform/responses';
import { eventPassRefusalResponse } from '../event-passes/event-passes.schema';
import { createRideSchema, rideListQuerySchema } from './rides.routes';
import { listRidesResponse, rideResponse } from './rides.schema';
import { problemSchema, validationProblemSchema } from '@platform/service-kit';
import { partnerScope } from '../../platform/partner-security';
import { adminModeQuery, withAdminMode } from '../partners';

/** The rides operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const ridesContract = [
  route({
    operationId: 'requestRide',
    method: 'post',
    path: '/api/v1/rides',
    tags: ['Rides'],
    security: partnerScope('rides:write'),
    headers: z.object({ 'Idempotency-Key': z.string().max(255).optional() }),
    body: createRideSchema,
    responses: {
      201: rideResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      409: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: { content: { 'application/problem+json': z.xor([validationProblemSchema, eventPassRefusalResponse]) } },
    },
  }),
  route({
    operationId: 'listRides',
    method: 'get',
    path: '/api/v1/rides',
    tags: ['Rides'],
    security: partnerScope('rides:read'),
    query: rideListQuerySchema,
    responses: {
      200: listRidesResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'getRide',
    method: 'get',
    path: '/api/v1/rides/{id}',
    tags: ['Rides'],
    security: partnerScope('rides:read'),
    params: z.object({ id: z.string() }),
    headers: z.object({ 'If-None-Match': z.string().meta({ examples: ["\"q9Zb1x7dM0y3\""] }).optional() }),
    responses: {
      200: { headers: { 'ETag': headers['ETag'] }, content: { 'application/json': rideResponse } },
      304: answers.NotModified,
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'streamRide',
    method: 'get',
    path: '/api/v1/rides/{id}/stream',
    tags: ['Rides'],
    security: partnerScope('rides:read'),
    params: z.object({ id: z.string() }),
    responses: {
      200: { headers: { 'Cache-Control': { schema: z.string() }, 'X-Accel-Buffering': { schema: z.string() } }, content: { 'text/event-stream': z.string().meta({ description: '`event: status` → `data:` is a `Ride`; `event: location` → `data:` is a `Telemetry`.\n' }) } },
      400: answers.MalformedRequest,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      404: answers.NotFound,
      429: answers.TooManyStreams,
    },
  }),
  route({
    operationId: 'cancelRide',
    method: 'post',
    path: '/api/v1/rides/{id}/cancel',
    tags: ['Rides'],
    security: partnerScope('rides:write'),
    params: z.object({ id: z.string() }),
    responses: {
      200: rideResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      404: answers.NotFound,
      409: answers.InvalidTransition,
      415: answers.UnsupportedMediaType,
    },
  }),
  route({
    operationId: 'adminListRides',
    method: 'get',
    path: '/admin/v1/rides',
    tags: ['Admin trips'],
    security: [{ adminJwt: [] }],
    query: withAdminMode(rideListQuerySchema),
    responses: {
      200: listRidesResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminGetRide',
    method: 'get',
    path: '/admin/v1/rides/{id}',
    tags: ['Admin trips'],
    security: [{ adminJwt: [] }],
    params: z.object({ id: z.string() }),
    headers: z.object({ 'If-None-Match': z.string().meta({ examples: ["\"q9Zb1x7dM0y3\""] }).optional() }),
    query: adminModeQuery,
    responses: {
      200: { headers: { 'ETag': headers['ETag'] }, content: { 'application/json': rideResponse } },
      304: answers.NotModified,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      404: answers.NotFound,
    },
  }),
] as const;
