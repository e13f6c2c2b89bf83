import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { listAuditLogResponse } from './audit.schema';
import { auditLogQuerySchema } from '@platform/service-kit/audit-trail';

/** The audit operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const auditContract = [
  route({
    operationId: 'listAuditLog',
    method: 'get',
    path: '/admin/v1/audit-log',
    tags: ['Admin audit log'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    query: auditLogQuerySchema,
    responses: {
      200: listAuditLogResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      422: answers.ValidationFailed,
    },
  }),
] as const;
