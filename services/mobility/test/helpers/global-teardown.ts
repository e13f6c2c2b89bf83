import { clearRedisPrefix, dropRunDatabase } from '@platform/test-kit';

export default async function globalTeardown(): Promise<void> {
  await dropRunDatabase(process.env.TEST_DATABASE_URL);
  await clearRedisPrefix(process.env.TEST_REDIS_PREFIX);
}
