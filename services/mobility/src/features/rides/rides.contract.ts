import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { eventPassRefusalResponse } from '../../platform/event-pass-refusal.schema';
import { createRideSchema, listRidesResponse, rideFareResponse, rideListQuerySchema, rideResponse } from './rides.schema';
import { placeResponse } from '../../platform/geo';
import { tierResponse } from '../../platform/pricing';
import { dateTime } from '../../platform/schema-types';
import { problemSchema, validationProblemSchema } from '@platform/service-kit/problem-schema';
import { partnerScope } from '../../platform/partner-security';
import { idempotencyKeySchema } from '../idempotency/idempotency.schema';
import { withAdminMode } from '../partners';
import { adminJobListAnswers, adminJobRead, jobCancelAnswers, jobEventStream, jobReadHeaders, jobStreamAnswers, jobWithEtag, partnerJobListAnswers, partnerJobReadAnswers } from '../jobs';

/** The rides operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const ridesContract = [
  route({
    operationId: 'requestRide',
    method: 'post',
    path: '/api/v1/rides',
    tags: ['Rides'],
    security: partnerScope('rides:write'),
    headers: z.object({ 'Idempotency-Key': idempotencyKeySchema.optional() }),
    body: createRideSchema,
    idempotent: true,
    responses: {
      201: rideResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      409: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: { content: { 'application/problem+json': z.xor([validationProblemSchema, eventPassRefusalResponse]) } },
      429: answers.RateLimited,
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
      ...partnerJobListAnswers,
    },
  }),
  route({
    operationId: 'getRide',
    method: 'get',
    path: '/api/v1/rides/{id}',
    tags: ['Rides'],
    security: partnerScope('rides:read'),
    params: z.object({ id: z.string() }),
    headers: jobReadHeaders,
    responses: {
      200: jobWithEtag(rideResponse),
      ...partnerJobReadAnswers,
    },
  }),
  route({
    operationId: 'streamRide',
    method: 'get',
    path: '/api/v1/rides/{id}/stream',
    tags: ['Rides'],
    security: partnerScope('rides:read'),
    cost: 'stream',
    params: z.object({ id: z.string() }),
    responses: {
      200: jobEventStream('Ride'),
      ...jobStreamAnswers,
    },
  }),
  route({
    operationId: 'getRideReceipt',
    method: 'get',
    path: '/api/v1/rides/{id}/receipt',
    tags: ['Rides'],
    security: partnerScope('rides:read'),
    params: z.object({ id: z.string() }),
    responses: {
      200: z.object({
        ride_id: z.string().regex(/^ride_/),
        tier: tierResponse,
        pickup: placeResponse,
        dropoff: placeResponse,
        fare: rideFareResponse,
        passenger_name: z.string(),
        driver_name: z.string().nullable(),
        completed_at: dateTime(),
        livemode: z.boolean(),
      }).meta({ id: 'RideReceipt' }),
      ...partnerJobReadAnswers,
      409: answers.InvalidTransition,
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
      ...jobCancelAnswers,
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
      ...adminJobListAnswers,
    },
  }),
  route({
    operationId: 'adminGetRide',
    method: 'get',
    path: '/admin/v1/rides/{id}',
    ...adminJobRead(rideResponse),
  }),
] as const;
