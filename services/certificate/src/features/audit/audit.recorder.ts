/**
 * The certificate service's audit log: the admin changes it records (`audit.handlers.ts` answers
 * `GET /admin/v1/audit-log`, where owners read them, newest first). Mobility keeps its own (endpoints, mobility keys, drivers) at the same path.
 */
import type { Request, RequestHandler } from 'express';
import { auditRecorder, rowSnapshot, type AuditSnapshot } from '@platform/service-kit/audit-trail';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';

/** Request fields kept in `details`; never a secret (tokens and signing secrets are answers, not requests). */
const DETAIL_FIELDS = ['name', 'role', 'email', 'scopes', 'mode', 'plan', 'pack', 'gateway', 'title', 'description', 'grace_period_seconds', 'expires_in_days'];

const member = rowSnapshot('memberships', ['account_id', 'role'], { idColumn: 'account_id', orgColumn: 'organization_id' });
const apiKey = rowSnapshot('api_keys', ['id', 'name', 'status', 'livemode', 'expires_at', 'rotated_at', 'revoked_at'], { idColumn: 'id', orgColumn: 'organization_id' });
const template = rowSnapshot('templates', ['id', 'name', 'status', 'current_version', 'archived_at'], { idColumn: 'id', orgColumn: 'organization_id' });

/**
 * What an update or a delete changes, read before it and after it (`before`/`after` of its entry; only the fields
 * that changed are kept, a delete keeps the whole object). Columns are named one by one: never a token's hash or
 * a template's bytes. `audit-coverage.test.ts` checks every update and delete the route table declares has one.
 */
export const CERTIFICATE_AUDIT_SNAPSHOTS: Readonly<Record<string, AuditSnapshot>> = {
  'member.role_changed': member,
  'member.removed': member,
  'invitation.deleted': rowSnapshot('invitations', ['id', 'email', 'role', 'expires_at', 'used_at'], { idColumn: 'id', orgColumn: 'organization_id' }),
  'api_key.deleted': apiKey,
  'api_key.rotated': apiKey,
  'api_key.revoked': apiKey,
  'certificate.revoked': rowSnapshot('certificates', ['id', 'certificate_number', 'recipient_name', 'program_title', 'status', 'livemode', 'revoked_at'], { idColumn: 'id', orgColumn: 'organization_id' }),
  'template.updated': template,
  'template.archived': template,
  'billing_details.updated': rowSnapshot('organization_billing_details', ['legal_name', 'address', 'tax_id', 'email'], { orgColumn: 'organization_id' }),
};

/** The recorder of the actions the route table declares (`audit`), into this service's audit log, with the caller's mode. */
export function certificateAuditRecorder(db: Knex, trustProxyHops: number, logger: Logger, modeOf?: (req: Request) => 'live' | 'test' | undefined): (action: string) => RequestHandler {
  return auditRecorder(db, {
    detailFields: DETAIL_FIELDS,
    trustProxyHops,
    ...(modeOf ? { modeOf } : {}),
    snapshots: CERTIFICATE_AUDIT_SNAPSHOTS,
    onWriteError: (error, action) => logger.error({ err: error, action }, 'audit log entry not written'),
  });
}
