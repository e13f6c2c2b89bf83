import type { Knex } from '@platform/service-kit/db';

/** A fake table that takes part in transactions: `snapshot` answers the function that puts it back as it was. */
export interface InMemoryTable {
  snapshot(): () => void;
}

export interface InMemoryDatabase {
  /** Stands in for the pool: only `transaction` is implemented (the fakes ignore the connection they are given). */
  db: Knex;
  register(table: InMemoryTable): void;
  /** Transactions that committed. */
  commits(): number;
}

/**
 * Transactions over in-memory tables, for unit tests without Postgres. They run one after another (a transaction
 * waits for the one before it to end, as a second UPDATE of a row waits for the first one's lock); one that throws
 * puts every registered table back as it was when it began (a rollback), and rethrows.
 */
export function createInMemoryDatabase(): InMemoryDatabase {
  const tables: InMemoryTable[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  let committed = 0;
  const run = async <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => {
    const restores = tables.map((table) => table.snapshot());
    const trx = { isTransaction: true, fn: { now: () => new Date() } } as unknown as Knex.Transaction;
    try {
      const result = await work(trx);
      committed++;
      return result;
    } catch (error) {
      for (const restore of restores) restore();
      throw error;
    }
  };
  const transaction = <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => {
    const turn = queue.then(() => run(work));
    queue = turn.catch(() => undefined);
    return turn;
  };
  return { db: { transaction } as unknown as Knex, register: (table) => tables.push(table), commits: () => committed };
}
