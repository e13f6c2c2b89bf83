import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { advanceDeliverySchema, advanceRideSchema } from './sandbox.routes';
import { partnerScope } from '../../platform/partner-security';

/** The sandbox operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const sandboxContract = [
  route({
    operationId: 'sandboxAdvanceRide',
    method: 'post',
    path: '/api/v1/sandbox/rides/{id}/advance',
    tags: ['Sandbox'],
    security: partnerScope('rides:write'),
    params: z.object({ id: z.string() }),
    body: advanceRideSchema,
    responses: {
      200: answers.RideMoved,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.SandboxForbidden,
      404: answers.NotFound,
      409: answers.SandboxTransitionRefused,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'sandboxAdvanceDelivery',
    method: 'post',
    path: '/api/v1/sandbox/deliveries/{id}/advance',
    tags: ['Sandbox'],
    security: partnerScope('deliveries:write'),
    params: z.object({ id: z.string() }),
    body: advanceDeliverySchema,
    responses: {
      200: answers.DeliveryMoved,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.SandboxForbidden,
      404: answers.NotFound,
      409: answers.SandboxTransitionRefused,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
] as const;
