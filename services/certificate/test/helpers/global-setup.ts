import { createDatabase, migrateLatest } from '@platform/service-kit';
import { createRunDatabase } from '@platform/test-kit';
import { CERTIFICATE_SCHEMA } from '../../src/config';
import { migrations } from '../../src/db/migrations';

/** One database per test run, migrated once; workers read its URL from the environment. */
export default async function globalSetup(): Promise<void> {
  const url = await createRunDatabase('certificate');
  process.env.TEST_DATABASE_URL = url;
  const db = createDatabase(url, CERTIFICATE_SCHEMA, 1);
  try {
    await migrateLatest(db, CERTIFICATE_SCHEMA, migrations);
  } finally {
    await db.destroy();
  }
}
