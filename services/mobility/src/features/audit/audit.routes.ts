/**
 * Mobility's audit log: the admin changes made here (webhook endpoints, mobility API keys, drivers)
 * are recorded by mobility, in its own database, and owners read them at `GET /admin/v1/audit-log`, the same shape as
 * the certificate service's (keys, roles, members, templates, plans); the dashboard shows both lists merged.
 */
import type { RequestHandler } from 'express';
import { API_KEY_AUDIT_RULES, AUDIT_ID as ID, auditRecorder, auditTrail, type AuditRule, type Knex, type Logger } from '@platform/service-kit';

export const MOBILITY_AUDIT_RULES: AuditRule[] = [
  ...API_KEY_AUDIT_RULES,
  { method: 'POST', pattern: /^\/webhooks\/?$/, action: 'webhook_endpoint.created' },
  { method: 'PATCH', pattern: new RegExp(`^/webhooks/${ID}/?$`), action: 'webhook_endpoint.updated' },
  { method: 'DELETE', pattern: new RegExp(`^/webhooks/${ID}/?$`), action: 'webhook_endpoint.deleted' },
  { method: 'POST', pattern: new RegExp(`^/webhooks/${ID}/rotate-secret/?$`), action: 'webhook_endpoint.secret_rotated' },
  { method: 'POST', pattern: new RegExp(`^/webhooks/${ID}/recover/?$`), action: 'webhook_endpoint.recovered' },
  { method: 'POST', pattern: /^\/drivers\/?$/, action: 'driver.registered' },
  { method: 'POST', pattern: new RegExp(`^/drivers/${ID}/activation-codes/?$`), action: 'driver.activation_code_issued' },
  { method: 'POST', pattern: new RegExp(`^/drivers/${ID}/disable/?$`), action: 'driver.disabled' },
];

/**
 * Request fields kept in `details` (never a secret; query `mode`/`livemode` says which data an endpoint change was for;
 * `display_name`/`brand_color` what a branding change set; `count` how many event passes were issued).
 */
const DETAIL_FIELDS = ['name', 'url', 'events', 'enabled', 'description', 'scopes', 'mode', 'livemode', 'kind', 'tier', 'grace_period_seconds', 'since', 'display_name', 'brand_color', 'count'];

/** The recorder of the actions the route table declares (`audit`), into this service's audit log. */
export function mobilityAuditRecorder(db: Knex, trustProxyHops: number, logger: Logger): (action: string) => RequestHandler {
  return auditRecorder(db, {
    detailFields: DETAIL_FIELDS,
    trustProxyHops,
    onWriteError: (error, action) => logger.error({ err: error, action }, 'audit log entry not written'),
  });
}

export function mobilityAuditTrail(db: Knex, trustProxyHops: number, logger: Logger): RequestHandler {
  return auditTrail(db, {
    rules: MOBILITY_AUDIT_RULES,
    detailFields: DETAIL_FIELDS,
    trustProxyHops,
    onWriteError: (error, action) => logger.error({ err: error, action }, 'audit log entry not written'),
  });
}
