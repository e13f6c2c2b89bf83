import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { healthzResponse, openapiResponse, readinessResponse } from './health.schema';
import { answers } from './responses';

/** The operations operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const operationsContract = [
  route({
    operationId: 'healthz',
    method: 'get',
    path: '/healthz',
    tags: ['Operations'],
    security: [],
    responses: {
      200: healthzResponse,
    },
  }),
  route({
    operationId: 'readyz',
    method: 'get',
    path: '/readyz',
    tags: ['Operations'],
    security: [],
    responses: {
      200: readinessResponse,
      400: answers.MalformedRequest,
      503: readinessResponse,
    },
  }),
  route({
    operationId: 'metrics',
    method: 'get',
    path: '/metrics',
    tags: ['Operations'],
    security: [],
    responses: {
      200: { content: { 'text/plain': z.string() } },
    },
  }),
  route({
    operationId: 'openapi',
    method: 'get',
    path: '/openapi.json',
    tags: ['Operations'],
    security: [],
    responses: {
      200: openapiResponse,
    },
  }),
] as const;
