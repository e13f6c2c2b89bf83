/**
 * The audit trail of the admin API: every successful change an admin makes (keys, roles, members,
 * webhook endpoints, templates, plans, drivers) is recorded with who made it, when, what and from which address. The
 * action is the route table entry's `audit`; the kit runs its recorder after the admin token is checked, and the row is
 * written before the answer is sent, so the change and its record are seen together. Failed requests record nothing.
 */
import type { Knex } from 'knex';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { clientAddress } from './client-address';
import { newId } from './ids';
import { pageQueryFields, type Page } from './pagination';

/** The query of each service's `GET /admin/v1/audit-log`: one schema, so both descriptions name one `AuditLogQuery`. */
export const auditLogQuerySchema = z
  .object(pageQueryFields({ defaultLimit: 50, idPrefix: 'aud' }))
  .meta({ id: 'AuditLogQuery', examples: [{ limit: 20 }] });

export interface AuditRecorderOptions {
  /** Request body fields worth keeping (never secrets): copied into `details`, strings cut to 200 characters. */
  detailFields: string[];
  trustProxyHops: number;
  /** Told when a row could not be written (the change itself stands; the answer is still sent). */
  onWriteError?: (error: unknown, action: string) => void;
}

export interface AuditEntry {
  id: string;
  organization_id: string;
  actor_id: string;
  actor_role: string;
  action: string;
  target_id: string | null;
  details: Record<string, unknown>;
  ip_address: string;
  created_at: string;
}

/** Each service's migration creates it: id (aud_…), organization_id, actor_id, actor_role, action, target_id, details (jsonb), ip_address, created_at. */
const TABLE = 'audit_log';

function detailsOf(body: unknown, query: Request['query'], fields: string[]): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  const source = { ...(typeof query === 'object' ? query : {}), ...(body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}) };
  for (const field of fields) {
    const value = (source as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value === 'string') details[field] = value.slice(0, 200);
    else if (JSON.stringify(value).length <= 1000) details[field] = value;
  }
  return details;
}

/** Writes one entry on `db` (a transaction's, so it commits with the change) for a change no admin request made. */
export async function recordAuditEntry(db: Knex, entry: Omit<AuditEntry, 'id' | 'created_at'>): Promise<void> {
  await db(TABLE).insert({ id: newId('aud'), ...entry });
}

/**
 * The recorder of one declared action (a route table entry's `audit`): behind the admin guard, a successful answer
 * (2xx) writes one row before it is sent. The changed object is the path's last parameter, else the answer's `id`.
 */
export function auditRecorder(db: Knex, options: AuditRecorderOptions): (action: string) => RequestHandler {
  return (action) => (req, res, next) => {
    const params = Object.values(req.params ?? {});
    recordOnSuccess(db, options, req, res, action, typeof params.at(-1) === 'string' ? (params.at(-1) as string) : undefined);
    next();
  };
}

/** Wraps the answer: when it ends with a 2xx, one row (who, what, which object, from where) is written first. */
function recordOnSuccess(db: Knex, options: AuditRecorderOptions, req: Request, res: Response, action: string, pathId: string | undefined): void {
  const admin = req.admin;
  if (!admin) return;
  let answered: unknown;
  const json = res.json.bind(res);
  res.json = (value: unknown) => {
    answered = value;
    return json(value);
  };
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    if (res.statusCode < 200 || res.statusCode >= 300) return end(...args);
    const answerId = answered && typeof answered === 'object' && typeof (answered as { id?: unknown }).id === 'string' ? (answered as { id: string }).id : null;
    const row = {
      id: newId('aud'),
      organization_id: admin.org,
      actor_id: admin.sub,
      actor_role: admin.role,
      action,
      target_id: pathId ?? answerId,
      details: detailsOf(req.body, req.query, options.detailFields),
      ip_address: clientAddress(req, options.trustProxyHops).slice(0, 100),
    };
    db(TABLE)
      .insert(row)
      .catch((error: unknown) => options.onWriteError?.(error, action))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/** The organization's audit log, newest first, a page at a time (`cursor` = the last entry's id). */
export async function readAuditLog(db: Knex, organizationId: string, page: { limit: number; cursor?: string }): Promise<Page<AuditEntry>> {
  const query = db(TABLE).where({ organization_id: organizationId });
  if (page.cursor) {
    query.whereRaw(`(created_at, id) < (select created_at, id from ${TABLE} where organization_id = ? and id = ?)`, [organizationId, page.cursor]);
  }
  const rows = (await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit + 1)) as (Omit<AuditEntry, 'created_at'> & { created_at: Date })[];
  const data = rows.slice(0, page.limit).map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
  const hasMore = rows.length > page.limit;
  return { data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
}
