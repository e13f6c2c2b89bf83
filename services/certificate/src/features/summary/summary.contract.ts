import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { invalidAdminTokenResponse, validationFailedResponse } from '../../http-contract';
import { summaryQuery } from './summary.schema';

export const certificateSummarySchema = z.strictObject({
  days: z.array(z.strictObject({
    date: z.iso.date(),
    certificates_issued: z.int().min(0),
    credits_used: z.int().min(0),
  })),
  certificates_issued: z.int().min(0),
  credits_used_this_month: z.int().min(0),
}).meta({ id: "CertificateSummary" });

export const summaryRouteTable = [
  route({
    operationId: 'getAdminSummary',
    method: 'get',
    path: '/admin/v1/summary',
    tags: ["Admin subscriptions"],
    security: [{"adminJwt": []}],
    query: summaryQuery,
    responses: {
      200: certificateSummarySchema,
      401: invalidAdminTokenResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
