import knex, { type Knex } from 'knex';
import { Client, types } from 'pg';

// DATE columns stay 'YYYY-MM-DD' strings: turning them into JS Dates would shift them by the process's time zone.
types.setTypeParser(1082, (value: string) => value);

export type { Knex };

export interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Shows a connection URL without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Creates the database named in the URL when it does not exist yet (safe when several processes race); answers whether
 * this call created it.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL names no database: ${redactUrl(url)}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount !== 0) return false;
    return await client.query(`create database "${name.replace(/"/g, '""')}"`).then(
      () => true,
      (error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
        return false; // created meanwhile by another process
      },
    );
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * A knex pool whose unqualified table names resolve inside the service's own schema. `settings` are extra Postgres
 * session settings for every connection of this pool (e.g. `{ synchronous_commit: 'off' }`).
 */
export function createDatabase(url: string, schema: string, poolMax = 10, settings: Record<string, string> = {}): Knex {
  const options = [`-c search_path=${schema}`, ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(' ');
  return knex({
    client: 'pg',
    connection: { connectionString: url, options } as Knex.PgConnectionConfig,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10000,
  });
}

/**
 * Applies the service's migrations (an ordered name → module map) inside its own schema, with knex's
 * bookkeeping tables in that schema too. Migrations are imported, not read from disk, so they run the same under
 * tsx, jest and a compiled build.
 */
export async function migrateLatest(db: Knex, schema: string, migrations: Record<string, Migration>): Promise<string[]> {
  await db.raw('create schema if not exists ??', [schema]);
  const names = Object.keys(migrations).sort();
  const [, applied] = (await db.migrate.latest({
    schemaName: schema,
    tableName: 'knex_migrations',
    migrationSource: {
      getMigrations: async () => names,
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => migrations[name]!,
    },
  })) as [number, string[]];
  return applied;
}

/** One line that says what is wrong and how to fix it, instead of a stack trace. */
export function describeUnreachable(kind: 'Postgres' | 'Redis', url: string, error: unknown): string {
  const reason = (error as { code?: string; message?: string })?.code ?? (error as Error)?.message ?? String(error);
  const how =
    kind === 'Postgres'
      ? 'start a local server (pg_ctlcluster <version> main start) or run `docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d postgres redis`'
      : 'start a local server (redis-server --daemonize yes) or run `docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d postgres redis`';
  return `${kind} is not reachable at ${redactUrl(url)} (${reason}): ${how}.`;
}

/**
 * Runs `work` in a transaction that holds the transaction-scoped advisory lock `key`, so only one process at a time
 * runs it; answers `undefined` without running it when another session holds the lock.
 */
export async function inTransactionHoldingLock<T>(db: Knex, key: number, work: (trx: Knex.Transaction) => Promise<T>): Promise<T | undefined> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw('select pg_try_advisory_xact_lock(?) as locked', [key]);
    return rows[0].locked ? work(trx) : undefined;
  });
}

interface PooledPgConnection {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * One statement (`$1`, `$2` placeholders) on a connection of the knex pool, without knex's builder and runner: for
 * the hottest single statements only (bench:verify and bench:estimates measured knex's wrapper at a noticeable share of a request).
 * Same pool, same session settings and the same acquire timeout error as `db.raw`.
 */
export async function queryRows<T>(db: Knex, text: string, values: unknown[]): Promise<T[]> {
  const client = db.client as { acquireConnection(): Promise<PooledPgConnection>; releaseConnection(connection: PooledPgConnection): Promise<void> };
  const connection = await client.acquireConnection();
  try {
    return (await connection.query(text, values)).rows as T[];
  } finally {
    void client.releaseConnection(connection);
  }
}
