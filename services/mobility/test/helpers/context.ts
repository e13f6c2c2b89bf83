import pino from 'pino';
import { createDatabase, createRedis, parseConfig, type Knex, type Redis } from '@platform/service-kit';
import { redisUrl } from '@platform/test-kit';
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { MOBILITY_SCHEMA, mobilityConfigSchema, type MobilityConfig } from '../../src/config';

export interface TestContext {
  app: Express;
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  close(): Promise<void>;
}

/** The app on this run's database and Redis prefix, with config from the given overrides; one per test file. */
export function createTestContext(env: Record<string, string> = {}): TestContext {
  const url = process.env.TEST_DATABASE_URL;
  const prefix = process.env.TEST_REDIS_PREFIX;
  if (!url || !prefix) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (global setup creates the database)');
  const config = parseConfig(mobilityConfigSchema, { DATABASE_URL: url, REDIS_URL: redisUrl(), REDIS_PREFIX: prefix, NODE_ENV: 'test', ...env });
  const db = createDatabase(url, MOBILITY_SCHEMA, 5);
  const redis = createRedis(config.REDIS_URL);
  const app = createApp({ db, redis, config, logger: pino({ level: 'silent' }) });
  return {
    app,
    db,
    redis,
    config,
    close: async () => {
      redis.disconnect();
      await db.destroy();
    },
  };
}
