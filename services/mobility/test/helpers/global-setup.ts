import { createDatabase, migrateLatest } from '@platform/service-kit';
import { createRunDatabase, newRedisPrefix } from '@platform/test-kit';
import { MOBILITY_SCHEMA } from '../../src/config';
import { migrations } from '../../src/db/migrations';

/** One database and Redis prefix per test run, migrated once; workers read its URL from the environment. */
export default async function globalSetup(): Promise<void> {
  const url = await createRunDatabase('mobility');
  process.env.TEST_DATABASE_URL = url;
  process.env.TEST_REDIS_PREFIX = newRedisPrefix('mobility');
  const db = createDatabase(url, MOBILITY_SCHEMA, 1);
  try {
    await migrateLatest(db, MOBILITY_SCHEMA, migrations);
  } finally {
    await db.destroy();
  }
}
