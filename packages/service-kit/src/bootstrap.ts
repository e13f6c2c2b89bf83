import { createDatabase, describeUnreachable, ensureDatabase, migrateLatest, type Knex, type Migration } from './database';
import type { Logger } from './logger';
import { pingRedis } from './redis';

/**
 * Start-up for a service that owns a schema: create the database if missing, apply migrations, return the pool.
 * An unreachable Postgres ends the process with one line saying where and how to start it.
 */
export async function openServiceDatabase(
  url: string,
  schema: string,
  migrations: Record<string, Migration>,
  logger: Logger,
  poolMax?: number,
  settings?: Record<string, string>,
): Promise<Knex> {
  try {
    await ensureDatabase(url);
  } catch (error) {
    exitWith(describeUnreachable('Postgres', url, error));
  }
  const db = createDatabase(url, schema, poolMax, settings);
  const applied = await migrateLatest(db, schema, migrations);
  if (applied.length) logger.info({ schema, applied }, 'migrations applied');
  return db;
}

export async function requireRedis(url: string): Promise<void> {
  try {
    await pingRedis(url);
  } catch (error) {
    exitWith(describeUnreachable('Redis', url, error));
  }
}

function exitWith(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}
