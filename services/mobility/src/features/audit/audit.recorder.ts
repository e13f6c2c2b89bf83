/**
 * Mobility's audit log: the admin changes made here (the actions its route table declares: webhook endpoints, mobility
 * API keys, drivers, event passes, branding) are recorded by mobility, in its own database, and owners read them at `GET /admin/v1/audit-log`, the same shape as
 * the certificate service's (keys, roles, members, templates, plans); the dashboard shows both lists merged.
 */
import type { Request, RequestHandler } from 'express';
import { auditRecorder, rowSnapshot, type AuditSnapshot } from '@platform/service-kit/audit-trail';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';

/**
 * Request fields kept in `details` (never a secret; query `mode`/`livemode` says which data an endpoint change was for;
 * `display_name`/`brand_color` what a branding change set; `count` how many event passes were issued).
 */
const DETAIL_FIELDS = ['name', 'url', 'events', 'enabled', 'description', 'scopes', 'mode', 'livemode', 'kind', 'tier', 'grace_period_seconds', 'since', 'display_name', 'brand_color', 'count'];

const apiKey = rowSnapshot('api_keys', ['id', 'name', 'scopes', 'status', 'livemode', 'expires_at', 'rotated_at', 'revoked_at'], { idColumn: 'id', orgColumn: 'partner_id' });
const endpoint = rowSnapshot('webhook_endpoints', ['id', 'url', 'events', 'description', 'status', 'disabled_reason', 'livemode'], { idColumn: 'id', orgColumn: 'partner_id' });

/**
 * What an update or a delete changes, read before it and after it (`before`/`after` of its entry; only the fields
 * that changed are kept, a delete keeps the whole object). Columns are named one by one: never a signing secret, a
 * token's hash, a pass code or a logo's bytes. `audit-coverage.test.ts` checks every update and delete the route
 * table declares has one.
 */
export const MOBILITY_AUDIT_SNAPSHOTS: Readonly<Record<string, AuditSnapshot>> = {
  'api_key.deleted': apiKey,
  'api_key.rotated': apiKey,
  'api_key.revoked': apiKey,
  'webhook_endpoint.updated': endpoint,
  'webhook_endpoint.deleted': endpoint,
  'driver.disabled': rowSnapshot('drivers', ['id', 'name', 'kind', 'tier', 'available', 'disabled_at'], { idColumn: 'id', orgColumn: 'organization_id' }),
  'branding.updated': rowSnapshot('partner_branding', ['display_name', 'brand_color', 'logo_content_type'], { orgColumn: 'partner_id' }),
  'event_pass_program.closed': rowSnapshot('event_pass_programs', ['id', 'name', 'status', 'closed_at'], { idColumn: 'id', orgColumn: 'partner_id' }),
  'event_pass.revoked': rowSnapshot('event_passes', ['id', 'program_id', 'attendee_reference', 'rides_allowed', 'rides_used', 'status', 'revoked_at'], { idColumn: 'id', orgColumn: 'partner_id' }),
};

/** The recorder of the actions the route table declares (`audit`), into this service's audit log, with the caller's mode. */
export function mobilityAuditRecorder(db: Knex, trustProxyHops: number, logger: Logger, modeOf?: (req: Request) => 'live' | 'test' | undefined): (action: string) => RequestHandler {
  return auditRecorder(db, {
    detailFields: DETAIL_FIELDS,
    trustProxyHops,
    ...(modeOf ? { modeOf } : {}),
    snapshots: MOBILITY_AUDIT_SNAPSHOTS,
    onWriteError: (error, action) => logger.error({ err: error, action }, 'audit log entry not written'),
  });
}
