/** The audit logs of both services (owners only): certificate (keys, roles, members, templates, plans) and mobility (endpoints, mobility keys, drivers). */
import { request } from '../../api/http';
import type { Page } from '../../api/types';

export interface AuditEntry {
  id: string;
  actor_id: string;
  actor_role: string;
  actor_name?: string | null;
  actor_email?: string | null;
  action: string;
  target_id: string | null;
  details: Record<string, unknown>;
  ip_address: string;
  created_at: string;
  /** Which data the change was made to; null for a change no dashboard made (a payment) or an entry older than modes. */
  mode?: 'live' | 'test' | null;
  /** An update's changed fields before it (a delete's: the whole object); null otherwise. */
  before?: Record<string, unknown> | null;
  /** An update's changed fields after it; null otherwise. */
  after?: Record<string, unknown> | null;
}

export type ServiceAuditEntry = AuditEntry & { service: 'certificate' | 'mobility' };

const LIMIT = 100;

/** The newest 100 of each service's entries, merged newest first. */
export async function listAuditLog(): Promise<ServiceAuditEntry[]> {
  const [certificate, mobility] = await Promise.all([
    request<Page<AuditEntry>>('certificate', '/audit-log', { query: { limit: LIMIT } }),
    request<Page<AuditEntry>>('mobility', '/audit-log', { query: { limit: LIMIT } }),
  ]);
  return [
    ...certificate.data.map((entry) => ({ ...entry, service: 'certificate' as const })),
    ...mobility.data.map((entry) => ({ ...entry, service: 'mobility' as const })),
  ].sort((a, b) => b.created_at.localeCompare(a.created_at));
}
