import { route } from '@platform/service-kit/route-table';
import { invalidAdminTokenResponse, validationFailedResponse } from '../../http-contract';
import { certificateSearchQuery, certificateSearchSchema } from './search.schema';

/** The dashboard's search of the organization's certificates and members (prose lives in openapi.overlay.yaml). */
export const searchRouteTable = [
  route({
    operationId: 'adminSearchCertificates',
    method: 'get',
    path: '/admin/v1/search',
    tags: ['Admin certificates'],
    security: [{ adminJwt: [] }],
    query: certificateSearchQuery,
    responses: {
      200: certificateSearchSchema,
      401: invalidAdminTokenResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
