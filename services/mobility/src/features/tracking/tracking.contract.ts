import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { trackingStatusResponse } from './tracking.schema';
import { problemSchema } from '@platform/service-kit/problem-schema';

/** The tracking operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const trackingContract = [
  route({
    operationId: 'getTrackingPage',
    method: 'get',
    path: '/track/{token}',
    tags: ['Tracking'],
    security: [],
    params: z.object({ token: z.string() }),
    responses: {
      200: { content: { 'text/html': z.string() } },
      404: { content: { 'text/html': z.string() } },
      410: { content: { 'text/html': z.string() } },
    },
  }),
  route({
    operationId: 'getTrackingStatus',
    method: 'get',
    path: '/track/{token}/status',
    tags: ['Tracking'],
    security: [],
    params: z.object({ token: z.string() }),
    responses: {
      200: { headers: { 'Cache-Control': { schema: z.literal('no-store') } }, content: { 'application/json': trackingStatusResponse } },
      404: answers.NotFound,
      410: { content: { 'application/problem+json': problemSchema } },
    },
  }),
  route({
    operationId: 'getTrackingLogo',
    method: 'get',
    path: '/track/{token}/logo',
    tags: ['Tracking'],
    security: [],
    params: z.object({ token: z.string() }),
    responses: {
      200: { content: { 'image/png': z.string().meta({ format: 'binary' }), 'image/jpeg': z.string().meta({ format: 'binary' }), 'image/webp': z.string().meta({ format: 'binary' }) } },
      404: answers.NotFound,
      410: { content: { 'application/problem+json': problemSchema } },
    },
  }),
  route({
    operationId: 'getTrackingProofImage',
    method: 'get',
    path: '/track/{token}/proof/{kind}',
    tags: ['Tracking'],
    security: [],
    // Described as the two kinds there are; another kind is answered 404 like an unknown token, so it passes the parser.
    params: z.object({ token: z.string(), kind: z.string().meta({ enum: ['photo', 'signature'] }) }),
    responses: {
      200: { content: { 'image/png': z.string().meta({ format: 'binary' }), 'image/jpeg': z.string().meta({ format: 'binary' }), 'image/webp': z.string().meta({ format: 'binary' }) } },
      404: answers.NotFound,
      410: { content: { 'application/problem+json': problemSchema } },
    },
  }),
  route({
    operationId: 'getTrackingScript',
    method: 'get',
    path: '/track/assets/tracking.js',
    tags: ['Tracking'],
    security: [],
    responses: {
      200: { content: { 'text/javascript': z.string() } },
      304: answers.NotModified,
    },
  }),
  route({
    operationId: 'getTrackingIcon',
    method: 'get',
    path: '/track/assets/icon.svg',
    tags: ['Tracking'],
    security: [],
    responses: {
      200: { content: { 'image/svg+xml': z.string() } },
    },
  }),
] as const;
