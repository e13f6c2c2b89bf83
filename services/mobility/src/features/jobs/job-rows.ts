import type { Knex } from '@platform/service-kit';

/** Which job row: by id, optionally only the partner's, or only the one assigned to `Assignee` (driverId, courierId). */
export type JobLookup<Assignee extends string> = { id: string; partnerId?: string } & Partial<Record<Assignee, string>>;

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
export async function findJobRow<Row>(db: Knex, table: string, id: string, scope: Record<string, string | undefined>, options: RowLock = {}): Promise<Row | undefined> {
  const query = db(table).where({ id });
  for (const [column, value] of Object.entries(scope)) if (value) query.andWhere(column, value);
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
