import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { insufficientRoleResponse, invalidAdminTokenResponse, validationFailedResponse } from '../../http-contract';
import { auditLogQuerySchema } from '@platform/service-kit/audit-trail';
import { pageSchema } from '@platform/service-kit/pagination';

export const auditRouteTable = [
  route({
    operationId: 'listAuditLog',
    method: 'get',
    path: '/admin/v1/audit-log',
    tags: ["Admin audit log"],
    security: [{"adminJwt": []}],
    query: auditLogQuerySchema,
    roles: ['owner'],
    responses: {
      200: pageSchema(z.object({
        id: z.string().regex(/^aud_/),
        organization_id: z.string(),
        actor_id: z.string(),
        actor_role: z.string(),
        action: z.string().meta({ examples: ["api_key.rotated"] }),
        target_id: z.string().nullable(),
        details: z.looseObject({}),
        ip_address: z.string(),
        created_at: z.iso.datetime({ offset: true }),
        actor_name: z.string().nullable().meta({ description: "The acting account's name (null when it no longer exists)." }).optional(),
        actor_email: z.string().nullable().optional(),
      })),
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
