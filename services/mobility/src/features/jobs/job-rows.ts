import type { Knex } from '@platform/service-kit';

/** Which job row: by id, optionally only the partner's, or only the one assigned to `Assignee` (driverId, courierId). */
export type JobLookup<Assignee extends string> = { id: string; partnerId?: string; livemode?: boolean } & Partial<Record<Assignee, string>>;

export interface RowLock {
  /** Lock the row FOR UPDATE until the transaction ends. */
  forUpdate?: boolean;
}

/** A new job row: every job starts `pending` (sequence 0, no event; its first status change is event 1). */
export async function insertJobRow<Row>(db: Knex, table: string, row: Record<string, unknown>): Promise<Row> {
  const [inserted] = await db(table).insert({ ...row, status: 'pending' }).returning('*');
  return inserted as Row;
}

/**
 * The lookup every job table (rides, deliveries) shares. `scope` narrows the row to its partner or its assignee;
 * an undefined value is no condition, so a lookup by id alone finds any row.
 */
export async function findJobRow<Row>(db: Knex, table: string, id: string, scope: Record<string, string | boolean | undefined>, options: RowLock = {}): Promise<Row | undefined> {
  const query = db(table).where({ id });
  for (const [column, value] of Object.entries(scope)) if (value !== undefined && value !== '') query.andWhere(column, value);
  if (options.forUpdate) query.forUpdate();
  return (await query.first()) as Row | undefined;
}

/** Writes a status change and bumps the row's event sequence (each event carries the sequence after its change). */
export async function updateJobStatus<Row>(trx: Knex.Transaction, table: string, id: string, change: Record<string, unknown>): Promise<Row> {
  const [row] = await trx(table)
    .where({ id })
    .update({ ...change, sequence: trx.raw('sequence + 1'), updated_at: trx.fn.now() })
    .returning('*');
  return row as Row;
}

/** A partner's list of one job kind: newest first, optionally of one status and within a creation window. */
export interface JobListFilter {
  partnerId: string;
  /** Live or test data: a key sees only the jobs of its own mode. */
  livemode: boolean;
  status?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  limit: number;
  /** The id of the last job of the previous page. */
  cursor?: string;
}

/**
 * `limit + 1` rows of the partner's list, newest first by (created_at, id), after the cursor's row. The order and the
 * conditions are those of the (partner_id[, status], created_at desc, id desc) indexes (migration 0210), so a page is
 * one index range however many rows the partner has. A cursor that is not one of the partner's jobs is undefined.
 */
export async function listJobRows<Row>(db: Knex, table: string, filter: JobListFilter): Promise<Row[] | undefined> {
  const query = db(table).where('partner_id', filter.partnerId).andWhere('livemode', filter.livemode);
  if (filter.status) query.andWhere('status', filter.status);
  if (filter.createdAfter) query.andWhere('created_at', '>', filter.createdAfter);
  if (filter.createdBefore) query.andWhere('created_at', '<', filter.createdBefore);
  if (filter.cursor) {
    const after = await db(table).where({ id: filter.cursor, partner_id: filter.partnerId, livemode: filter.livemode }).first('created_at', 'id');
    if (!after) return undefined;
    query.andWhereRaw('(created_at, id) < (?, ?)', [after.created_at, after.id]);
  }
  return (await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filter.limit + 1)) as Row[];
}
