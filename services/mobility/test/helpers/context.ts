import pino from 'pino';
import type { Worker } from 'bullmq';
import { createDatabase } from '@platform/service-kit/db';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { parseConfig } from '@platform/service-kit/config';
import { redisUrl, runDatabaseUrl, runRedisPrefix } from '@platform/test-kit';
import { createApp } from '../../src/app';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from '../../src/config';
import { createDispatchWorker, startSearchRetrySweeper, type SearchRetrySweeper } from '../../src/features/dispatch/dispatch.worker';
import { buildServices } from '../../src/services';
import { createPartnerKey } from '../factories/auth';
import { partnerApi } from '../factories/rides';
import type { TestContext } from './test-context';

export type { TestContext } from './test-context';

/** The app on this run's database and Redis prefix, with config from the given overrides; one per test file. */
export function createTestContext(env: Record<string, string> = {}): TestContext {
  const url = runDatabaseUrl();
  const prefix = runRedisPrefix();
  const config = parseConfig(mobilityConfigSchema, { DATABASE_URL: url, REDIS_URL: redisUrl(), REDIS_PREFIX: prefix, NODE_ENV: 'test', ...env });
  const db = createDatabase(url, MOBILITY_SCHEMA, 5);
  const redis = createRedis(config.REDIS_URL);
  const logger = pino({ level: 'silent' });
  const services = buildServices({ db, redis, config, logger });
  const app = createApp({ db, redis, config, logger }, services);
  const workers: { worker: Worker; sweeper: SearchRetrySweeper; connection: Redis }[] = [];
  return {
    app,
    db,
    redis,
    config,
    services,
    startDispatchWorker() {
      const connection = createRedis(config.REDIS_URL);
      const worker = createDispatchWorker(services.dispatcher, connection, config.REDIS_PREFIX, logger);
      // The search retries run beside the BullMQ timers, as in the worker process (on the services' own Redis connection).
      const sweeper = startSearchRetrySweeper(services.dispatcher, services.timers.retries, logger);
      workers.push({ worker, sweeper, connection });
      return worker;
    },
    close: async () => {
      for (const { worker, sweeper, connection } of workers) {
        await sweeper.stop();
        await worker.close();
        connection.disconnect();
      }
      await services.timers.close();
      await services.telemetry.close();
      redis.disconnect();
      await db.destroy();
    },
  };
}

export type PartnerApi = ReturnType<typeof partnerApi>;

/**
 * The usual set-up of a partner-API test file: a context and a partner holding a key with every scope, made before the
 * file's tests and closed after them. `onReady` hands both to the file's variables.
 */
export function beforeAllWithPartner(onReady: (ctx: TestContext, partner: PartnerApi) => void, env: Record<string, string> = {}): void {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = createTestContext(env);
    onReady(ctx, partnerApi(ctx, (await createPartnerKey(ctx)).token));
  });
  afterAll(() => ctx?.close());
}
