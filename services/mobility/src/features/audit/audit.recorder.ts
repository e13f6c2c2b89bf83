/**
 * Mobility's audit log: the admin changes made here (the actions its route table declares: webhook endpoints, mobility
 * API keys, drivers, event passes, branding) are recorded by mobility, in its own database, and owners read them at `GET /admin/v1/audit-log`, the same shape as
 * the certificate service's (keys, roles, members, templates, plans); the dashboard shows both lists merged.
 */
import type { RequestHandler } from 'express';
import { auditRecorder } from '@platform/service-kit/audit-trail';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';

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
