import type { Knex } from '@platform/service-kit/db';
import type { JobListFilter, JobRepository } from './job.repository';

/**
 * In-memory fakes of the job tables, for unit tests of the life cycles without Postgres. A transaction is a snapshot
 * of every registered table, restored when the work throws (a rollback); rows are copied in and out, so a caller
 * never changes a stored row by hand. There is one caller at a time, so `forUpdate` has nothing to wait for.
 */

/** A table that takes part in the fake's transactions: `snapshot` answers the function that puts it back. */
interface InMemoryTable {
  snapshot(): () => void;
}

export interface InMemoryDatabase {
  /** Stands in for the pool: only `transaction` is implemented (repositories of this file ignore the connection). */
  db: Knex;
  register(table: InMemoryTable): void;
  /** Whether a transaction is open (a test can tell what ran while rows were locked). */
  inTransaction(): boolean;
}

/** What `trx.fn.now()` answers inside a fake transaction; the fake tables store the time of the change instead. */
const NOW = Object.freeze({ fakeNow: true });

export function createInMemoryDatabase(): InMemoryDatabase {
  const tables: InMemoryTable[] = [];
  let open = 0;
  const transaction = async <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => {
    open++;
    const restores = tables.map((table) => table.snapshot());
    let settle!: { commit: () => void; rollback: (error: unknown) => void };
    const executionPromise = new Promise<void>((commit, rollback) => (settle = { commit, rollback }));
    executionPromise.catch(() => undefined); // a rollback is answered to whoever waits on the commit, never unhandled
    const trx = { executionPromise, parentTransaction: undefined, isTransaction: true, fn: { now: () => NOW } } as unknown as Knex.Transaction;
    try {
      const result = await work(trx);
      settle.commit();
      return result;
    } catch (error) {
      for (const restore of restores) restore();
      settle.rollback(error);
      throw error;
    } finally {
      open--;
    }
  };
  return { db: { transaction } as unknown as Knex, register: (table) => tables.push(table), inTransaction: () => open > 0 };
}

/** The columns every fake job row has (rides and deliveries have them all). */
export interface InMemoryJobRow {
  id: string;
  partner_id: string;
  livemode: boolean;
  status: string;
  sequence: number;
  created_at: Date;
  updated_at: Date;
}

export interface InMemoryJobTable<Row, NewRow, Lookup, Change> {
  /** The stored row of an insert: the columns Postgres fills (defaults) besides `status`, `sequence` and the times. */
  defaults(row: NewRow): Omit<Row, keyof NewRow | 'status' | 'sequence' | 'created_at' | 'updated_at'>;
  /** Whether a row is the one `lookup` asks for (its id, and the partner, mode or assignee it names). */
  matches(row: Row, lookup: Lookup): boolean;
  /** Columns a status change sets besides its own, at `now` (deliveries append to their timeline). */
  alsoSet?(row: Row, change: Change, now: Date): Partial<Row>;
}

/** A job table in memory, with the knex repository's answers: `pending` on insert, sequence + 1 per change, newest-first lists. */
export function createInMemoryJobRepository<Row extends InMemoryJobRow, NewRow extends object, Lookup extends { id: string }, Change extends object>(
  memory: InMemoryDatabase,
  table: InMemoryJobTable<Row, NewRow, Lookup, Change>,
): JobRepository<Row, NewRow, Lookup, Change> & { patch(id: string, columns: Partial<Row>): Promise<Row>; rows(): Row[] } {
  let rows = new Map<string, Row>();
  let clock = 0;
  /** Distinct, increasing times, so newest first is the order of insertion. */
  const now = () => new Date(Date.UTC(2026, 0, 1) + ++clock * 1000);
  memory.register({
    snapshot() {
      const saved = new Map([...rows].map(([id, row]) => [id, structuredClone(row)]));
      const savedClock = clock;
      return () => {
        rows = saved;
        clock = savedClock;
      };
    },
  });
  const newestFirst = (a: Row, b: Row) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

  return {
    async insert(_conn, row) {
      const at = now();
      const stored = { ...table.defaults(row), ...row, status: 'pending', sequence: 0, created_at: at, updated_at: at } as unknown as Row;
      rows.set(stored.id, structuredClone(stored));
      return structuredClone(stored);
    },

    async find(_conn, lookup) {
      const row = rows.get(lookup.id);
      return row && table.matches(row, lookup) ? structuredClone(row) : undefined;
    },

    async updateStatus(_conn, id, change) {
      const row = rows.get(id);
      if (!row) throw new Error(`no row ${id}`);
      const at = now();
      const columns = Object.fromEntries(Object.entries(change).map(([column, value]) => [column, value === NOW ? at : value]));
      const updated = { ...row, ...columns, ...table.alsoSet?.(row, change, at), sequence: row.sequence + 1, updated_at: at } as Row;
      rows.set(id, structuredClone(updated));
      return structuredClone(updated);
    },

    async list(_conn, filter: JobListFilter) {
      let found = [...rows.values()].filter(
        (row) =>
          row.partner_id === filter.partnerId &&
          row.livemode === filter.livemode &&
          (!filter.status || row.status === filter.status) &&
          (!filter.createdAfter || row.created_at > filter.createdAfter) &&
          (!filter.createdBefore || row.created_at < filter.createdBefore),
      );
      found.sort(newestFirst);
      if (filter.cursor) {
        const after = rows.get(filter.cursor);
        if (!after || after.partner_id !== filter.partnerId || after.livemode !== filter.livemode) return undefined;
        found = found.filter((row) => newestFirst(after, row) < 0);
      }
      return found.slice(0, filter.limit + 1).map((row) => structuredClone(row));
    },

    /** Sets columns outside a status change (no new sequence), as a table's other statements do (the PIN counter). */
    async patch(id, columns) {
      const row = rows.get(id);
      if (!row) throw new Error(`no row ${id}`);
      const updated = { ...row, ...columns };
      rows.set(id, structuredClone(updated));
      return structuredClone(updated);
    },

    /** Every stored row (copies), for a test's assertions. */
    rows: () => [...rows.values()].map((row) => structuredClone(row)),
  };
}
