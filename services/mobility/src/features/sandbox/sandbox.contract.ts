import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { advanceDeliverySchema, advanceRideSchema } from './sandbox.schema';
import { partnerScope } from '../../platform/partner-security';

/** What moving a test-mode job on shares, whatever its kind: the tag, a test-mode key with the kind's write scope, and the job's id. */
const sandboxJob = (scope: 'rides:write' | 'deliveries:write') => ({ tags: ['Sandbox'], security: partnerScope(scope), mode: 'test-only' as const, params: z.object({ id: z.string() }) });

/** How moving a test-mode job on is refused: bad JSON, no usable key, a key without the scope or a live one, no such job, a step its status does not allow, a body that is not JSON or not valid. */
const advanceAnswers = {
  400: answers.InvalidJson,
  401: answers.InvalidApiKey,
  403: answers.SandboxForbidden,
  404: answers.NotFound,
  409: answers.SandboxTransitionRefused,
  415: answers.UnsupportedMediaType,
  422: answers.ValidationFailed,
  429: answers.RateLimited,
};

/** The sandbox operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const sandboxContract = [
  route({
    operationId: 'sandboxAdvanceRide',
    method: 'post',
    path: '/api/v1/sandbox/rides/{id}/advance',
    ...sandboxJob('rides:write'),
    body: advanceRideSchema,
    responses: {
      200: answers.RideMoved,
      ...advanceAnswers,
    },
  }),
  route({
    operationId: 'sandboxAdvanceDelivery',
    method: 'post',
    path: '/api/v1/sandbox/deliveries/{id}/advance',
    ...sandboxJob('deliveries:write'),
    body: advanceDeliverySchema,
    responses: {
      200: answers.DeliveryMoved,
      ...advanceAnswers,
    },
  }),
] as const;
