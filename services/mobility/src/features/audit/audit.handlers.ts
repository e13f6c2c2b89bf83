import { adminOf } from '@platform/service-kit/admin-auth';
import { readAuditLog } from '@platform/service-kit/audit-trail';
import type { Knex } from '@platform/service-kit/db';
import type { Handlers } from '@platform/service-kit/operations';
import type { auditContract } from './audit.contract';

/** `GET /admin/v1/audit-log` (owners). Actors are account ids: the certificate service's members list names them. */
export function auditHandlers(db: Knex): Handlers<typeof auditContract> {
  return {
    listAuditLog: async ({ query, req }) => ({
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: await readAuditLog(db, adminOf(req).org, query),
    }),
  };
}
