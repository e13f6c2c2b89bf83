import { Worker } from 'bullmq';
import { Registry } from 'prom-client';
import { closeGracefullyOnSignal, createLogger, createRedis, loadConfigOrExit, openServiceDatabase, requireRedis } from '@platform/service-kit';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
import { migrations } from './db/migrations';
import { startWebhookDelivery } from './features/webhooks/webhook-worker';
import { QUEUES } from './queues';

/** The BullMQ worker process: outbound webhook deliveries (with the outbox relay) and dispatch timers. */
async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility-worker');
  const logger = createLogger('mobility-worker', config.LOG_LEVEL);
  await requireRedis(config.REDIS_URL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger, Math.min(50, config.WEBHOOK_CONCURRENCY + 5));
  const connection = createRedis(config.REDIS_URL);
  const webhooks = startWebhookDelivery({ db, connection, config, logger, registry: new Registry() });
  const dispatch = new Worker(
    QUEUES.dispatch,
    async (job) => {
      logger.warn({ queue: QUEUES.dispatch, jobName: job.name }, 'no handler for job yet');
    },
    { connection, prefix: config.REDIS_PREFIX },
  );
  logger.info({ queues: Object.values(QUEUES), prefix: config.REDIS_PREFIX }, 'worker started');
  closeGracefullyOnSignal(logger, [], [() => webhooks.close(), () => dispatch.close(), async () => connection.quit(), () => db.destroy()]);
}

void main();
