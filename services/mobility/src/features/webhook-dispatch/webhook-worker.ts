import { Worker } from 'bullmq';
import type { Registry } from 'prom-client';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import type { MobilityConfig } from '../../config';
import { QUEUES } from '../../platform/queues';
import { createEndpointSecretCipher } from './endpoint-secret-cipher';
import type { AppendEndpointEvent } from './endpoint-events';
import { reencryptStaleSecrets } from './secret-reencryption';
import { listenForOutboxCommits } from './outbox-listener';
import { createOutboxRelay, startRelayLoop } from './outbox-relay';
import { createWebhookMessageProcessor, RetryWebhookMessageError } from './webhook-message.processor';
import { exponentialDelayMs, retryPolicyFrom } from './retry-schedule';
import { createWebhookAttemptMetrics } from './webhook-metrics';
import { createWebhookQueue, enqueueWebhookMessageLater, WEBHOOK_BACKOFF_TYPE, type WebhookJobData } from './webhook-queue';
import { createWebhookSender } from './webhook-sender';

/**
 * Postgres session settings for the worker's pool. Its writes (claims, attempt log, relay bookkeeping) commit without
 * waiting for the WAL flush; the API's own writes, outbox events included, stay synchronous.
 */
export const WORKER_DB_SETTINGS = { synchronous_commit: 'off' };

export interface WebhookDispatchDeps {
  db: Knex;
  /** A connection for the worker (BullMQ blocks on it; `maxRetriesPerRequest: null`). */
  connection: Redis;
  config: MobilityConfig;
  logger: Logger;
  registry?: Registry;
  /** The outbox's append, for `webhook_endpoint.disabled` events. */
  appendEvent: AppendEndpointEvent;
}

/**
 * The worker side of outgoing webhooks: the outbox relay loop and the BullMQ worker that sends each attempt.
 * Concurrency (WEBHOOK_CONCURRENCY) plus a per-request timeout and a per-endpoint cap
 * (WEBHOOK_ENDPOINT_CONCURRENCY requests in flight per endpoint and process) keep one slow endpoint from delaying the others.
 */
export function startWebhookDispatch({ db, connection, config, logger, registry, appendEvent }: WebhookDispatchDeps) {
  const queue = createWebhookQueue(connection, config.REDIS_PREFIX);
  const secrets = createEndpointSecretCipher(config);
  // Plaintext secrets from before encryption, and rows under a previous key, are rewritten under the current key.
  void reencryptStaleSecrets(db, secrets, logger)
    .then((count) => count > 0 && logger.info({ count }, 'webhook secrets re-encrypted under the current key'))
    .catch((err: unknown) => logger.error({ err }, 'webhook secret re-encryption failed'));
  const retryPolicy = retryPolicyFrom(config);
  const sender = createWebhookSender({ allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE }, config.WEBHOOK_TIMEOUT_MS);
  const processor = createWebhookMessageProcessor({
    db,
    sender,
    logger,
    metrics: registry ? createWebhookAttemptMetrics(registry) : undefined,
    retryDelay: (attempt) => retryPolicy.delayAfter(attempt),
    perEndpointInFlight: Math.min(config.WEBHOOK_ENDPOINT_CONCURRENCY, config.WEBHOOK_CONCURRENCY),
    secrets,
    appendEvent,
    claimLeaseMs: config.WEBHOOK_CLAIM_LEASE_MS ?? config.WEBHOOK_TIMEOUT_MS + 5000,
    enqueueLater: (endpointId, message, delayMs) => enqueueWebhookMessageLater(queue, endpointId, message, delayMs),
  });
  const worker = new Worker<WebhookJobData>(QUEUES.webhooks, processor, {
    connection,
    prefix: config.REDIS_PREFIX,
    concurrency: config.WEBHOOK_CONCURRENCY,
    lockDuration: config.WEBHOOK_JOB_LOCK_MS,
    stalledInterval: config.WEBHOOK_JOB_LOCK_MS,
    maxStalledCount: 10, // a crashed worker's jobs go back to the queue rather than failing
    settings: {
      backoffStrategy: (attemptsMade, type, err) => {
        if (type === WEBHOOK_BACKOFF_TYPE && err instanceof RetryWebhookMessageError) return err.delayMs;
        return exponentialDelayMs(Math.min(config.WEBHOOK_BACKOFF_MS ?? 5000, 5000), Math.min(attemptsMade, 6)); // infrastructure errors
      },
    },
  });
  worker.on('error', (err) => logger.error({ err }, 'webhook worker error'));

  const relay = createOutboxRelay({ db, queue, logger, maxAttempts: retryPolicy.maxAttempts });
  const loop = startRelayLoop(relay, logger, {
    intervalMs: config.WEBHOOK_RELAY_INTERVAL_MS,
    sweepEveryMs: Math.max(5000, config.WEBHOOK_RELAY_INTERVAL_MS * 10),
    sweepOlderThanMs: Math.max(30000, config.WEBHOOK_JOB_LOCK_MS),
  });

  // Commits of outbox events (Postgres NOTIFY from migration 0120's trigger) run the relay at once; the poll stays as
  // the fallback when the LISTEN connection is down.
  const listener = listenForOutboxCommits(config.databaseUrl, () => void loop.trigger(), logger);

  return {
    worker,
    queue,
    relay,
    trigger: loop.trigger,
    async close() {
      await listener.close();
      await loop.stop();
      await worker.close();
      await queue.close();
      sender.close();
    },
  };
}

export type WebhookDispatch = ReturnType<typeof startWebhookDispatch>;
