/**
 * The audit trail of the admin API: every successful change an admin makes (keys, roles, members,
 * webhook endpoints, templates, plans, drivers) is recorded with who made it, when, what, on which object, in which
 * mode (live or test data) and from which address; an update or a delete also keeps the object's fields it changed,
 * before and after (read by the service's snapshot of that action, never a secret). The action is the route table
 * entry's `audit`; the kit runs its recorder after the admin token is checked, and the row is written before the
 * answer is sent, so the change and its record are seen together. Failed requests record nothing.
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
  /** The caller's mode (the same as the route table's mode check reads): recorded as `mode`. */
  modeOf?: (req: Request) => 'live' | 'test' | undefined;
  /** Action → how to read its object (an update's or a delete's), before the handler runs and after it answered. */
  snapshots?: Readonly<Record<string, AuditSnapshot>>;
}

/** The object an action changes, as plain fields (no secret: `withoutSecrets` drops any left), or null when there is none. */
export type AuditSnapshot = (db: Knex, target: { organizationId: string; targetId: string | null }) => Promise<Record<string, unknown> | null>;

/** A field named like a credential never enters a record, whatever a snapshot selected. */
const SECRET_FIELD = /secret|token|hash|password|pin|code$|^logo$/i;

/** Plain JSON fields of a row, without secrets and bytes; dates as ISO strings. */
export function withoutSecrets(row: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (SECRET_FIELD.test(name) || Buffer.isBuffer(value) || value instanceof Uint8Array) continue;
    fields[name] = value instanceof Date ? value.toISOString() : value;
  }
  return fields;
}

/** The snapshot of a row of `table` (`columns` only), the target's id in `idColumn`, the organization's in `orgColumn` (or the row keyed by the organization alone). */
export function rowSnapshot(table: string, columns: string[], keys: { idColumn?: string; orgColumn: string }): AuditSnapshot {
  return async (db, { organizationId, targetId }) => {
    if (keys.idColumn && !targetId) return null;
    const query = db(table).where(keys.orgColumn, organizationId).first(columns);
    if (keys.idColumn) query.andWhere(keys.idColumn, targetId);
    return ((await query) as Record<string, unknown> | undefined) ?? null;
  };
}

/** The fields an update changed, before and after; a delete (no after) keeps the whole before, a first setting (no before) the whole after. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  if (!before || !after) return { before, after };
  const changed = Object.keys({ ...before, ...after }).filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
  return { before: Object.fromEntries(changed.map((name) => [name, before[name] ?? null])), after: Object.fromEntries(changed.map((name) => [name, after[name] ?? null])) };
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
  /** Which data the change was made to (`live`/`test`); null when the caller had none (a change by the payment gateway). */
  mode: 'live' | 'test' | null;
  /** An update's or a delete's changed fields before it (a delete: the whole object), else null. */
  before: Record<string, unknown> | null;
  /** An update's changed fields after it, else null. */
  after: Record<string, unknown> | null;
}

/**
 * Each service's migrations create it: id (aud_…), organization_id, actor_id, actor_role, action, target_id, details
 * (jsonb), ip_address, created_at; then mode, before and after (jsonb).
 */
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

/** An entry written by a change no admin request made (a payment, an invitation used): no before/after. */
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'created_at' | 'mode' | 'before' | 'after'> & Partial<Pick<AuditEntry, 'mode'>>;

/** Writes one entry on `db` (a transaction's, so it commits with the change) for a change no admin request made. */
export async function recordAuditEntry(db: Knex, entry: NewAuditEntry): Promise<void> {
  await db(TABLE).insert({ id: newId('aud'), ...entry });
}

/**
 * The recorder of one declared action (a route table entry's `audit`): behind the admin guard, a successful answer
 * (2xx) writes one row before it is sent. The changed object is the path's last parameter, else the answer's `id`.
 */
export function auditRecorder(db: Knex, options: AuditRecorderOptions): (action: string) => RequestHandler {
  return (action) => (req, res, next) => {
    const params = Object.values(req.params ?? {});
    const pathId = typeof params.at(-1) === 'string' ? (params.at(-1) as string) : undefined;
    const snapshot = options.snapshots?.[action];
    if (!snapshot || !req.admin) {
      recordOnSuccess(db, options, req, res, action, pathId);
      return next();
    }
    const target = { organizationId: req.admin.org, targetId: pathId ?? null };
    const read = () => snapshot(db, target).then(withoutSecrets, (error: unknown) => (options.onWriteError?.(error, action), null));
    read().then((before) => {
      recordOnSuccess(db, options, req, res, action, pathId, async () => changedFields(before, await read()));
      next();
    }, next);
  };
}

function modeOf(options: AuditRecorderOptions, req: Request): 'live' | 'test' | null {
  try {
    return options.modeOf?.(req) ?? null;
  } catch {
    return null; // a malformed mode query: the handler refuses it, and nothing is recorded
  }
}

/** Wraps the answer: when it ends with a 2xx, one row (who, what, which object, which mode, from where, what changed) is written first. */
function recordOnSuccess(
  db: Knex,
  options: AuditRecorderOptions,
  req: Request,
  res: Response,
  action: string,
  pathId: string | undefined,
  changes: () => Promise<Pick<AuditEntry, 'before' | 'after'>> = async () => ({ before: null, after: null }),
): void {
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
      mode: modeOf(options, req),
    };
    changes()
      .then(({ before, after }) => db(TABLE).insert({ ...row, before: jsonOrNull(before), after: jsonOrNull(after) }))
      .catch((error: unknown) => options.onWriteError?.(error, action))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/** A jsonb value for knex (an object is sent as JSON text). */
function jsonOrNull(value: Record<string, unknown> | null): string | null {
  return value === null ? null : JSON.stringify(value);
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
