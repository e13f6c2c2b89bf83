/**
 * Audit log (owners): who changed keys, roles, members, endpoints, templates, plans, drivers, event passes, branding
 * and certificates, when, in which mode, from where, and (for an update or a delete) what it changed, before and after.
 */
import { useQuery } from '@tanstack/react-query';
import { useIsOwner } from '../../auth/session';
import { DataTable } from '../../ui/DataTable';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { ModeBadge } from '../../ui/ModeBadge';
import { listMembers } from '../members/members-api';
import { listAuditLog, type ServiceAuditEntry } from './audit-log-api';
import { AUDIT_VALUES } from '../../ui/list-columns';

/** `api_key.rotated` → "API key rotated". */
export function actionLabel(action: string): string {
  return humanLabel(action).replace(/^Api key/, 'API key');
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatDate(value); // a time, as the page's others
  return Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function detailsLine(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${valueText(value)}`)
    .join(' · ');
}

/**
 * What an update or a delete changed: each field before → after (struck out and underlined, so the change reads
 * without colour); a delete shows what was removed, a first setting what was set.
 */
export function ChangeDiff({ before, after }: { before: Record<string, unknown> | null | undefined; after: Record<string, unknown> | null | undefined }) {
  if (!before && !after) return null;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (fields.length === 0) return null;
  const caption = !after ? 'Removed' : !before ? 'Set' : 'Changed';
  return (
    <div className="audit-diff" data-testid="audit-diff">
      <span className="muted">{caption}:</span>
      <ul>
        {fields.map((field) => (
          <li key={field} data-field={field}>
            <span className="audit-diff-field">{field.replace(/_/g, ' ')}</span>{' '}
            {before && (
              <del>
                <span className="visually-hidden">before: </span>
                {valueText(before[field])}
              </del>
            )}
            {before && after && ' → '}
            {after && (
              <ins>
                <span className="visually-hidden">after: </span>
                {valueText(after[field])}
              </ins>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
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
          <p className="muted">
            Every change to keys, roles, members, webhook endpoints, templates, certificates, plans, drivers, event passes and branding, newest first, with
            the data it was made to (live or test) and, for an update or a delete, what it changed.
          </p>
          <DataTable dataMode="shared" query={entries} what="the audit log" caption="Changes" columns={['When', 'Who', 'What', 'Mode', 'From']}
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
                  <ChangeDiff before={entry.before} after={entry.after} />
                </td>
                <td data-testid="audit-mode">{entry.mode ? <ModeBadge mode={entry.mode} /> : <span className="muted">—</span>}</td>
                <td data-testid="audit-address">{entry.ip_address}</td>
              </tr>
            )} />
        </>
      )}
    </section>
  );
}
