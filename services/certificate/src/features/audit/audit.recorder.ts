/**
 * The certificate service's audit log: the admin changes it records (`audit.handlers.ts` answers
 * `GET /admin/v1/audit-log`, where owners read them, newest first). Mobility keeps its own (endpoints, mobility keys, drivers) at the same path.
 */
import type { RequestHandler } from 'express';
import { auditRecorder } from '@platform/service-kit/audit-trail';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';

/** Request fields kept in `details`; never a secret (tokens and signing secrets are answers, not requests). */
const DETAIL_FIELDS = ['name', 'role', 'email', 'scopes', 'mode', 'plan', 'pack', 'gateway', 'title', 'description', 'grace_period_seconds', 'expires_in_days'];

/** The recorder of the actions the route table declares (`audit`), into this service's audit log. */
export function certificateAuditRecorder(db: Knex, trustProxyHops: number, logger: Logger): (action: string) => RequestHandler {
  return auditRecorder(db, {
    detailFields: DETAIL_FIELDS,
    trustProxyHops,
    onWriteError: (error, action) => logger.error({ err: error, action }, 'audit log entry not written'),
  });
}
