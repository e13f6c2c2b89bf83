import { createDatabase, migrateLatest, type Migration } from '@platform/service-kit/db';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, newRedisPrefix } from './run-resources';

export interface RunResourcesSpec {
  /** Names the run's database (`test_<label>_…`) and Redis prefix. */
  label: string;
  schema: string;
  migrations: Record<string, Migration>;
  /** Whether the package's tests use Redis (a prefix of this run's own). */
  redis?: boolean;
}

/**
 * jest global set-up: one database per test run, migrated once, and a Redis prefix of the run's own, so packages that
 * run side by side never share either. The workers read them from TEST_DATABASE_URL and TEST_REDIS_PREFIX.
 */
export async function setUpRunResources(spec: RunResourcesSpec): Promise<void> {
  const url = await createRunDatabase(spec.label);
  process.env.TEST_DATABASE_URL = url;
  if (spec.redis) process.env.TEST_REDIS_PREFIX = newRedisPrefix(spec.label);
  const db = createDatabase(url, spec.schema, 1);
  try {
    await migrateLatest(db, spec.schema, spec.migrations);
  } finally {
    await db.destroy();
  }
}

/** jest global teardown: drops the run's database and clears its Redis prefix. */
export async function tearDownRunResources(): Promise<void> {
  await dropRunDatabase(process.env.TEST_DATABASE_URL);
  await clearRedisPrefix(process.env.TEST_REDIS_PREFIX);
}

/** The run's database, inside a test worker; a clear error when the tests were not started by jest. */
export function runDatabaseUrl(): string {
  return fromGlobalSetup('TEST_DATABASE_URL');
}

/** The run's Redis prefix, inside a test worker of a package whose set-up made one. */
export function runRedisPrefix(): string {
  return fromGlobalSetup('TEST_REDIS_PREFIX');
}

function fromGlobalSetup(name: 'TEST_DATABASE_URL' | 'TEST_REDIS_PREFIX'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest (its global set-up creates the run's database and Redis prefix)`);
  return value;
}
