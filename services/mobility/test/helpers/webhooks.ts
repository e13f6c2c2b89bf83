import { randomBytes } from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import { createDatabase, migrateLatest, type Knex } from '@platform/service-kit/db';
import { createJsonApp } from '@platform/service-kit/json-app';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { errorHandler, notFoundHandler } from '@platform/service-kit/error-handler';
import { parseConfig } from '@platform/service-kit/config';
import type { Logger } from '@platform/service-kit/logger';
import { mountOperations, type OperationGuards } from '@platform/service-kit/operations';
import type { RequestHandler } from 'express';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, redisUrl, runSuffix, runRedisPrefix } from '@platform/test-kit';
import { MOBILITY_SCHEMA, mobilityConfigSchema, type MobilityConfig } from '../../src/config';
import { migrations } from '../../src/db/migrations';
import { appendOutboxEvent, type OutboxEventBody } from '../../src/features/outbox/outbox.repository';
import { createEndpointSecretCipher } from '../../src/features/webhook-dispatch/endpoint-secret-cipher';
import { createWebhookQueue, type WebhookQueue } from '../../src/features/webhook-dispatch/webhook-queue';
import { startWebhookDispatch, type WebhookDispatch } from '../../src/features/webhook-dispatch/webhook-worker';
import { webhookEndpointsContract } from '../../src/features/webhook-endpoints/webhook-endpoints.contract';
import { webhookEndpointHandlers } from '../../src/features/webhook-endpoints/webhook-endpoints.handlers';
import { createWebhookEndpointService } from '../../src/features/webhook-endpoints/webhook-endpoints.service';
import { createWebhookEndpointsRepository } from '../../src/features/webhook-endpoints/webhook-endpoints.repository';
import { createWebhookMessageLogRepository } from '../../src/features/webhook-endpoints/webhook-message-log.repository';

export const silentLogger = pino({ level: 'silent' });

/**
 * The header the engine tests' stand-in authentication reads the partner from: these tests exercise delivery, not
 * keys (webhooks-e2e.test.ts goes through real API keys and scopes).
 */
export const PARTNER_HEADER = 'X-Test-Partner';

export function newPartnerId(): string {
  return `org_test_${randomBytes(6).toString('hex')}`;
}

/** The webhook routes as the service mounts them, behind a stand-in for key authentication that takes the partner from a header. */
export function webhookTestApp(db: Knex, redis: Redis, config: MobilityConfig, queue = createWebhookQueue(redis, config.REDIS_PREFIX)): Express {
  const service = createWebhookEndpointService({
    db,
    endpoints: createWebhookEndpointsRepository(db),
    messageLog: createWebhookMessageLogRepository(db),
    queue,
    policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
    secrets: createEndpointSecretCipher(config),
    maxEndpointsPerPartner: config.WEBHOOK_MAX_ENDPOINTS_PER_PARTNER,
    recoverMinIntervalSeconds: config.WEBHOOK_RECOVER_MIN_INTERVAL_S,
    appendEvent: appendOutboxEvent,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
  });
  const app = createJsonApp();
  const partner: RequestHandler = (req, _res, next) => {
    const id = req.header(PARTNER_HEADER);
    if (id) req.apiKey = { keyId: 'key_test', organizationId: id, scopes: ['webhooks:manage'], livemode: true };
    next();
  };
  const guards: OperationGuards = { schemes: { apiKey: () => [partner], apiKeyHeader: () => [partner] } };
  // The partner operations only (`/api/v1/webhooks…`), mounted from their table entries as the service mounts them.
  const partnerOperations = webhookEndpointsContract.filter((spec) => spec.path.startsWith('/api/v1/'));
  const handlers = Object.fromEntries(Object.entries(webhookEndpointHandlers(service)).filter(([id]) => partnerOperations.some((spec) => spec.operationId === id)));
  mountOperations(app, partnerOperations, handlers, guards);
  app.use(notFoundHandler());
  app.use(errorHandler(silentLogger));
  return app;
}

export interface IsolatedContext {
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  queue: WebhookQueue;
  app: Express;
  databaseUrl: string;
  /** The environment a worker child process needs to run on this context's database and prefix. */
  workerEnv: Record<string, string>;
  /** Starts a relay and a worker on this context (silent unless given a logger). */
  startDelivery(logger?: Logger): WebhookDispatch;
  close(): Promise<void>;
}

/**
 * A database and Redis prefix of the test file's own: the outbox relay claims every undispatched event in its
 * database, so files that run relays and workers must not share one with other files running in parallel.
 */
export async function createIsolatedContext(env: Record<string, string> = {}): Promise<IsolatedContext> {
  const runPrefix = runRedisPrefix();
  const databaseUrl = await createRunDatabase('mobility_wh');
  const prefix = `${runPrefix}_${runSuffix()}`; // under the run's prefix, so global teardown clears it too
  const workerEnv = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: prefix,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_BACKOFF_MS: '50',
    WEBHOOK_MAX_ATTEMPTS: '5',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RELAY_INTERVAL_MS: '50',
    ...env,
  };
  const config = parseConfig(mobilityConfigSchema, workerEnv);
  const db = createDatabase(databaseUrl, MOBILITY_SCHEMA, 20);
  await migrateLatest(db, MOBILITY_SCHEMA, migrations);
  const redis = createRedis(config.REDIS_URL);
  const queue = createWebhookQueue(redis, prefix);
  const started: { close(): Promise<void> }[] = [];
  return {
    db,
    redis,
    config,
    queue,
    app: webhookTestApp(db, redis, config, queue),
    databaseUrl,
    workerEnv,
    startDelivery(logger = silentLogger) {
      const connection = createRedis(config.REDIS_URL);
      const delivery = startWebhookDispatch({ db, connection, config, logger, appendEvent: appendOutboxEvent });
      started.push({ close: async () => (await delivery.close(), connection.disconnect()) });
      return delivery;
    },
    async close() {
      for (const delivery of started) await delivery.close();
      await queue.close();
      redis.disconnect();
      await db.destroy();
      await dropRunDatabase(databaseUrl);
      await clearRedisPrefix(prefix);
    },
  };
}

let sequence = 0;

/** Writes events as a state change would: inside a transaction, through appendOutboxEvent. */
export async function insertEvents(db: Knex, partnerId: string, types: string[]): Promise<OutboxEventBody[]> {
  return db.transaction(async (trx) => {
    const bodies: OutboxEventBody[] = [];
    for (const type of types) {
      const objectType = type.startsWith('ride.') ? 'ride' : 'delivery';
      const objectId = `${objectType === 'ride' ? 'ride' : 'dlv'}_${randomBytes(10).toString('hex')}`;
      sequence += 1;
      bodies.push(
        await appendOutboxEvent(trx, {
          partnerId,
          type,
          objectType,
          objectId,
          sequence,
          data: { id: objectId, status: type.split('.')[1], sequence, updated_at: new Date().toISOString(), note: 'naïve ✓ unicode' },
        }),
      );
    }
    return bodies;
  });
}

export async function registerEndpoint(app: Express, partnerId: string, url: string, events?: string[]) {
  const res = await request(app).post('/api/v1/webhooks').set(PARTNER_HEADER, partnerId).send({ url, ...(events ? { events } : {}) }).expect(201);
  return res.body as { id: string; secret: string; url: string; events: string[] };
}
