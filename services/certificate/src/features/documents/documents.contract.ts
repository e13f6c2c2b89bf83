import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { certificateIdParameter, invalidAdminTokenResponse, notFoundResponse, validationFailedResponse } from '../../http-contract';
import { documentQuery } from './documents.schema';

export const documentsRouteTable = [
  route({
    operationId: 'getCertificateDocument',
    method: 'get',
    path: '/admin/v1/certificates/{id}/document',
    tags: ["Admin templates"],
    security: [{"adminJwt": []}],
    params: z.object({ id: certificateIdParameter }),
    query: documentQuery,
    cost: 'render',
    responses: {
      200: { content: { "application/pdf": null, "image/png": null } },
      401: invalidAdminTokenResponse,
      404: notFoundResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
