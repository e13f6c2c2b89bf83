import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { mobilitySearchQuery, mobilitySearchResponse } from './search.schema';

/** The dashboard's search of the organization's mobility objects (prose lives in openapi.overlay.yaml). */
export const searchContract = [
  route({
    operationId: 'adminSearchMobility',
    method: 'get',
    path: '/admin/v1/search',
    tags: ['Admin trips'],
    security: [{ adminJwt: [] }],
    query: mobilitySearchQuery,
    responses: {
      200: mobilitySearchResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
] as const;
