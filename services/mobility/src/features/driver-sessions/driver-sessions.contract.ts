import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { integer } from '../../platform/schema-types';
import { driverSessionResponse, refreshSchema, signInSchema } from './driver-sessions.schema';
import { problemSchema } from '@platform/service-kit/problem-schema';

/** The driver-sessions operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const driverSessionsContract = [
  route({
    operationId: 'signInDriver',
    method: 'post',
    path: '/driver/v1/sessions',
    tags: ['Driver sessions'],
    security: [],
    body: signInSchema,
    responses: {
      201: driverSessionResponse,
      400: answers.InvalidJson,
      401: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
      429: { headers: { 'Retry-After': { schema: integer() } }, content: { 'application/problem+json': problemSchema } },
    },
  }),
  route({
    operationId: 'refreshDriverSession',
    method: 'post',
    path: '/driver/v1/sessions/refresh',
    tags: ['Driver sessions'],
    security: [],
    body: refreshSchema,
    responses: {
      200: driverSessionResponse,
      400: answers.InvalidJson,
      401: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'signOutDriver',
    method: 'delete',
    path: '/driver/v1/sessions/current',
    tags: ['Driver sessions'],
    security: [{ driverJwt: [] }],
    responses: {
      204: null,
      400: answers.MalformedRequest,
      401: answers.InvalidDriverToken,
      404: answers.NotFound,
      415: answers.UnsupportedMediaType,
    },
  }),
] as const;
