import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { mobilitySummaryQuery, mobilitySummaryResponse } from './summary.schema';

/** The summary operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const summaryContract = [
  route({
    operationId: 'getAdminMobilitySummary',
    method: 'get',
    path: '/admin/v1/summary',
    tags: ['Admin trips'],
    security: [{ adminJwt: [] }],
    query: mobilitySummaryQuery,
    responses: {
      200: mobilitySummaryResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
] as const;
