/**
 * The certificate service's audit log: the admin changes it records (`audit.handlers.ts` answers
 * `GET /admin/v1/audit-log`, where owners read them, newest first). Mobility keeps its own (endpoints, mobility keys, drivers) at the same path.
 */
import type { RequestHandler } from 'express';
import { API_KEY_AUDIT_RULES, AUDIT_ID as ID, auditRecorder, auditTrail, type AuditRule, type Knex, type Logger } from '@platform/service-kit';

export const CERTIFICATE_AUDIT_RULES: AuditRule[] = [
  ...API_KEY_AUDIT_RULES,
  { method: 'PATCH', pattern: new RegExp(`^/members/${ID}/?$`), action: 'member.role_changed' },
  { method: 'DELETE', pattern: new RegExp(`^/members/${ID}/?$`), action: 'member.removed' },
  { method: 'POST', pattern: /^\/invitations\/?$/, action: 'member.invited' },
  { method: 'DELETE', pattern: new RegExp(`^/invitations/${ID}/?$`), action: 'invitation.deleted' },
  { method: 'POST', pattern: /^\/templates\/?$/, action: 'template.created' },
  { method: 'PATCH', pattern: new RegExp(`^/templates/${ID}/?$`), action: 'template.updated' },
  { method: 'POST', pattern: new RegExp(`^/templates/${ID}/archive/?$`), action: 'template.archived' },
  { method: 'POST', pattern: /^\/subscriptions\/checkout\/?$/, action: 'plan.checkout_started' },
  { method: 'POST', pattern: /^\/credits\/top-ups\/?$/, action: 'credits.checkout_started' },
];

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

export function certificateAuditTrail(db: Knex, trustProxyHops: number, logger: Logger): RequestHandler {
  return auditTrail(db, {
    rules: CERTIFICATE_AUDIT_RULES,
    detailFields: DETAIL_FIELDS,
    trustProxyHops,
    onWriteError: (error, action) => logger.error({ err: error, action }, 'audit log entry not written'),
  });
}
