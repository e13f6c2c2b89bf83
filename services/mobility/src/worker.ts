import { Worker } from 'bullmq';
import { closeGracefullyOnSignal, createLogger, createRedis, loadConfigOrExit, openServiceDatabase, requireRedis } from '@platform/service-kit';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
import { migrations } from './db/migrations';
import { QUEUES } from './queues';

/** The BullMQ worker process: outbound webhook deliveries and dispatch timers. */
async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility-worker');
  const logger = createLogger('mobility-worker', config.LOG_LEVEL);
  await requireRedis(config.REDIS_URL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger);
  const connection = createRedis(config.REDIS_URL);
  const workers = Object.values(QUEUES).map(
    (queue) =>
      new Worker(
        queue,
        async (job) => {
          logger.warn({ queue, jobName: job.name }, 'no handler for job yet');
        },
        { connection, prefix: config.REDIS_PREFIX },
      ),
  );
  logger.info({ queues: Object.values(QUEUES), prefix: config.REDIS_PREFIX }, 'worker started');
  closeGracefullyOnSignal(logger, [], [...workers.map((w) => () => w.close()), async () => connection.quit(), () => db.destroy()]);
}

void main();
