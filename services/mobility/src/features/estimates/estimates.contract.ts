import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { estimateResponse, estimateSchema } from './estimates.schema';
import { partnerScope } from '../../platform/partner-security';

/** The estimates operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const estimatesContract = [
  route({
    operationId: 'createEstimate',
    method: 'post',
    path: '/api/v1/estimates',
    tags: ['Estimates'],
    security: partnerScope('estimates:read'),
    body: estimateSchema,
    responses: {
      200: estimateResponse,
      400: answers.InvalidJson,
      401: answers.InvalidApiKey,
      403: answers.InsufficientScope,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
      429: answers.RateLimited,
    },
  }),
] as const;
