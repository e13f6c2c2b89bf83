import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { closeGracefullyOnSignal } from '@platform/service-kit/shutdown';
import { bufferedStdout, createLogger } from '@platform/service-kit/logger';
import { createRedis } from '@platform/service-kit/redis';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { openServiceDatabase, requireRedis } from '@platform/service-kit/bootstrap';
import { startTracing } from '@platform/service-kit/tracing';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
import { migrations } from './db/migrations';
import { createDispatchWorker, startSearchRetrySweeper } from './features/dispatch';
import { scheduleEventRetention, startWebhookDispatch, WORKER_DB_SETTINGS } from './features/webhook-dispatch';
import { appendOutboxEvent } from './features/outbox';
import { scheduleDriverCredentialRetention } from './features/driver-sessions';
import { scheduleSandboxExpiry } from './features/sandbox';
import { QUEUES } from './platform/queues';
import { buildServices } from './services';
import { createWorkerHealthServer } from './platform/worker-health';

/** The BullMQ worker process: outbound webhook deliveries (with the outbox relay) and dispatch timers. */
async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility-worker');
  const logger = createLogger('mobility-worker', config.LOG_LEVEL, bufferedStdout());
  const tracing = await startTracing('mobility-worker');
  await requireRedis(config.REDIS_URL);
  // The worker's writes are delivery bookkeeping: committing them asynchronously is much faster, and a Postgres crash
  // can only lose the last fraction of a second of it, which at-least-once delivery absorbs (services/mobility/README.md).
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger, Math.min(50, config.WEBHOOK_CONCURRENCY + 5), WORKER_DB_SETTINGS);
  const redis = createRedis(config.REDIS_URL);
  const connection = createRedis(config.REDIS_URL);
  const services = buildServices({ db, redis, config, logger });
  const dispatch = createDispatchWorker(services.dispatcher, connection, config.REDIS_PREFIX, logger);
  const searchRetries = startSearchRetrySweeper(services.dispatcher, services.timers.retries, logger);
  const registry = new Registry();
  const webhooks = startWebhookDispatch({ db, connection, config, logger, registry, appendEvent: appendOutboxEvent });
  // Events and attempt logs older than 30 days are deleted hourly (one worker at a time: a Postgres advisory lock).
  const retention = scheduleEventRetention(db, logger);
  // Spent driver refresh tokens, ended sessions and expired activation codes are deleted hourly too (driver-sessions).
  const credentialRetention = scheduleDriverCredentialRetention(db, logger);
  // Test-mode jobs nobody moved for SANDBOX_JOB_TTL_S are ended (cancelled, or failed after pick-up) every five minutes.
  const sandboxExpiry = scheduleSandboxExpiry(() => services.sandbox.expireIdle(config.SANDBOX_JOB_TTL_S), logger);
  const servers: Server[] = [];
  if (config.WORKER_METRICS_PORT !== undefined) {
    // Optional (unset: no listener): /healthz for probes and /metrics (webhook_delivery_attempts_total{outcome}).
    const server = createWorkerHealthServer([dispatch, webhooks.worker], registry);
    server.listen(config.WORKER_METRICS_PORT, config.BIND_ADDRESS, () => logger.info({ port: config.WORKER_METRICS_PORT, address: config.BIND_ADDRESS }, 'worker health and metrics listening'));
    servers.push(server);
  }
  // Closing a BullMQ worker whose connections are still starting rejects unhandled; announce (and accept SIGTERM) once ready.
  await Promise.all([dispatch.waitUntilReady(), webhooks.worker.waitUntilReady()]);
  logger.info({ queues: Object.values(QUEUES), prefix: config.REDIS_PREFIX }, 'worker started');
  closeGracefullyOnSignal(logger, servers, [
    () => searchRetries.stop(),
    () => dispatch.close(),
    () => webhooks.close(),
    () => retention.stop(),
    () => credentialRetention.stop(),
    () => sandboxExpiry.stop(),
    () => services.timers.close(),
    async () => connection.quit(),
    async () => redis.quit(),
    () => db.destroy(),
    () => tracing.shutdown(),
  ]);
}

void main();
