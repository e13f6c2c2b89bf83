import { Worker } from 'bullmq';
import { closeGracefullyOnSignal, createLogger, createRedis, loadConfigOrExit, openServiceDatabase, requireRedis } from '@platform/service-kit';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
import { migrations } from './db/migrations';
import { createDispatchWorker } from './features/dispatch/dispatch.worker';
import { QUEUES } from './queues';
import { buildServices } from './services';

/** The BullMQ worker process: outbound webhook deliveries and dispatch timers. */
async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility-worker');
  const logger = createLogger('mobility-worker', config.LOG_LEVEL);
  await requireRedis(config.REDIS_URL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger);
  const redis = createRedis(config.REDIS_URL);
  const connection = createRedis(config.REDIS_URL);
  const services = buildServices({ db, redis, config, logger });
  const dispatch = createDispatchWorker(services.dispatcher, connection, config.REDIS_PREFIX, logger);
  const webhooks = new Worker(
    QUEUES.webhooks,
    async (job) => {
      logger.warn({ queue: QUEUES.webhooks, jobName: job.name }, 'no handler for job yet');
    },
    { connection, prefix: config.REDIS_PREFIX },
  );
  // Closing a BullMQ worker whose connections are still starting rejects unhandled; announce (and accept SIGTERM) once ready.
  await Promise.all([dispatch.waitUntilReady(), webhooks.waitUntilReady()]);
  logger.info({ queues: Object.values(QUEUES), prefix: config.REDIS_PREFIX }, 'worker started');
  closeGracefullyOnSignal(logger, [], [
    () => dispatch.close(),
    () => webhooks.close(),
    () => services.timers.close(),
    async () => connection.quit(),
    async () => redis.quit(),
    () => db.destroy(),
  ]);
}

void main();
