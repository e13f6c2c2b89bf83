import type { Knex } from '@platform/service-kit/db';

/** Which job row: by id, optionally only the partner's, or only the one assigned to `Assignee` (driverId, courierId). */
export type JobLookup<Assignee extends string> = { id: string; partnerId?: string; livemode?: boolean } & Partial<Record<Assignee, string>>;

export interface RowLock {
  /** Lock the row FOR UPDATE until the transaction ends. */
  forUpdate?: boolean;
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
 * The rows of one job table (rides, deliveries). Each call runs on the connection it is given: the caller's
 * transaction, or the pool. `createKnexJobRepository` is the Postgres implementation; the in-memory fake
 * (`in-memory-jobs.ts`) keeps rows in a map for unit tests of the life cycles.
 */
export interface JobRepository<Row, NewRow, Lookup, Change> {
  /** A new job row: every job starts `pending` (sequence 0, no event; its first status change is event 1). */
  insert(conn: Knex, row: NewRow): Promise<Row>;
  /** One row, narrowed by the lookup's partner, mode or assignee; `forUpdate` locks it. */
  find(conn: Knex, lookup: Lookup, options?: RowLock): Promise<Row | undefined>;
  /** Writes a status change and bumps the row's event sequence (each event carries the sequence after its change). */
  updateStatus(trx: Knex.Transaction, id: string, change: Change): Promise<Row>;
  /** `limit + 1` of the partner's rows, newest first; undefined when the cursor is not one of theirs. */
  list(conn: Knex, filter: JobListFilter): Promise<Row[] | undefined>;
}

export interface KnexJobTable<Lookup, Change> {
  table: string;
  /** The lookup as column conditions; an undefined value is no condition, so a lookup by id alone finds any row. */
  scopeOf(lookup: Lookup): Record<string, string | boolean | undefined>;
  /** Columns a status change sets besides its own (deliveries append to their timeline). */
  alsoSet?(trx: Knex.Transaction, change: Change): Record<string, unknown>;
}

/** The Postgres implementation over one job table. */
export function createKnexJobRepository<Row, NewRow extends object, Lookup extends { id: string }, Change extends object>({
  table,
  scopeOf,
  alsoSet,
}: KnexJobTable<Lookup, Change>): JobRepository<Row, NewRow, Lookup, Change> {
  return {
    async insert(conn, row) {
      const [inserted] = await conn(table).insert({ ...row, status: 'pending' }).returning('*');
      return inserted as Row;
    },

    async find(conn, lookup, options = {}) {
      const query = conn(table).where({ id: lookup.id });
      for (const [column, value] of Object.entries(scopeOf(lookup))) if (value !== undefined && value !== '') query.andWhere(column, value);
      if (options.forUpdate) query.forUpdate();
      return (await query.first()) as Row | undefined;
    },

    async updateStatus(trx, id, change) {
      const [row] = await trx(table)
        .where({ id })
        .update({ ...change, ...alsoSet?.(trx, change), sequence: trx.raw('sequence + 1'), updated_at: trx.fn.now() })
        .returning('*');
      return row as Row;
    },

    /**
     * Newest first by (created_at, id), after the cursor's row. The order and the conditions are those of the
     * (partner_id[, status], created_at desc, id desc) indexes (migration 0210), so a page is one index range however
     * many rows the partner has.
     */
    async list(conn, filter) {
      const query = conn(table).where('partner_id', filter.partnerId).andWhere('livemode', filter.livemode);
      if (filter.status) query.andWhere('status', filter.status);
      if (filter.createdAfter) query.andWhere('created_at', '>', filter.createdAfter);
      if (filter.createdBefore) query.andWhere('created_at', '<', filter.createdBefore);
      if (filter.cursor) {
        const after = await conn(table).where({ id: filter.cursor, partner_id: filter.partnerId, livemode: filter.livemode }).first('created_at', 'id');
        if (!after) return undefined;
        query.andWhereRaw('(created_at, id) < (?, ?)', [after.created_at, after.id]);
      }
      return (await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filter.limit + 1)) as Row[];
    },
  };
}
