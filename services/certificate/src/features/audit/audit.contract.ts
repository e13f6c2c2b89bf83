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
        mode: z.enum(['live', 'test']).nullable().meta({ description: 'Which data the change was made to; null when the caller had no mode (the payment gateway) or for an entry older than the mode.' }),
        before: z.record(z.string(), z.unknown()).nullable().meta({ description: "An update's changed fields before it (a delete's: the whole object); never a secret. Null for other actions." }),
        after: z.record(z.string(), z.unknown()).nullable().meta({ description: "An update's changed fields after it; null for other actions and deletes." }),
        actor_name: z.string().nullable().meta({ description: "The acting account's name (null when it no longer exists)." }).optional(),
        actor_email: z.string().nullable().optional(),
      })),
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
