/** Audit log (owners): who changed keys, roles, members, endpoints, templates, plans and drivers, when, and from where. */
import { useQuery } from '@tanstack/react-query';
import { useIsOwner } from '../../auth/session';
import { DataTable } from '../../ui/DataTable';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { listMembers } from '../members/members-api';
import { listAuditLog, type ServiceAuditEntry } from './audit-log-api';
import { AUDIT_VALUES } from '../../ui/list-columns';

/** `api_key.rotated` → "API key rotated". */
export function actionLabel(action: string): string {
  return humanLabel(action).replace(/^Api key/, 'API key');
}

function detailsLine(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join(' · ');
}

export function AuditLogPage() {
  const isOwner = useIsOwner();
  const entries = useQuery({ queryKey: ['audit-log'], queryFn: listAuditLog, enabled: isOwner });
  // Mobility records account ids only: the members list names them.
  const members = useQuery({ queryKey: ['members'], queryFn: listMembers, enabled: isOwner });
  const nameOf = (entry: ServiceAuditEntry) => {
    if (entry.actor_role === 'payment') return 'Payment';
    const member = members.data?.data.find((candidate) => candidate.account_id === entry.actor_id);
    return entry.actor_name ?? member?.name ?? entry.actor_id;
  };
  return (
    <section>
      <h1>Audit log</h1>
      {!isOwner ? (
        <p className="notice">Only owners read the audit log.</p>
      ) : (
        <>
          <p className="muted">Every change to keys, roles, members, webhook endpoints, templates, plans and drivers, newest first.</p>
          <DataTable dataMode="shared" query={entries} what="the audit log" caption="Changes" columns={['When', 'Who', 'What', 'From']}
            rows={entries.data} rowKey={(entry) => `${entry.service}-${entry.id}`} values={AUDIT_VALUES} exportName="audit-log"
            empty="No changes yet. Creating a key, inviting a member or registering a webhook endpoint is recorded here."
            renderRow={(entry) => (
              <tr data-testid="audit-entry" data-action={entry.action}>
                <td>{formatDate(entry.created_at)}</td>
                <td>
                  {nameOf(entry)}
                  <div className="muted">{entry.actor_email ?? humanLabel(entry.actor_role)}</div>
                </td>
                <td>
                  <strong>{actionLabel(entry.action)}</strong> {entry.target_id && <code>{entry.target_id}</code>}
                  {Object.keys(entry.details).length > 0 && <div className="muted">{detailsLine(entry.details)}</div>}
                </td>
                <td data-testid="audit-address">{entry.ip_address}</td>
              </tr>
            )} />
        </>
      )}
    </section>
  );
}
