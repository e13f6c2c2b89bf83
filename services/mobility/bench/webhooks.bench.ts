/**
 * `pnpm bench:webhooks`: deliveries per second through the whole pipeline (outbox → relay → BullMQ → signed POST →
 * attempt log) for 5,000 events to a local receiver, against a same-run baseline of plain signed POSTs sent from one
 * process with the same concurrency. Prints both rates and their ratio. Needs local Postgres and Redis.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createDatabase, createRedis, migrateLatest, newId, parseConfig } from '@platform/service-kit';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, redisUrl, runSuffix } from '@platform/test-kit';
import { signWebhook, generateWebhookSecret } from '@platform/webhook-signature';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from '../src/config';
import { migrations } from '../src/db/migrations';
import { appendOutboxEvent } from '../src/features/outbox/outbox.repository';
import { createWebhookSender } from '../src/features/webhook-dispatch/webhook-sender';
import { startWebhookDispatch, WORKER_DB_SETTINGS } from '../src/features/webhook-dispatch/webhook-worker';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const CONCURRENCY = 50;
/** One receiver is one endpoint, so the pipeline sends at most this many at once; the baseline gets the same. */
const ENDPOINT_CONCURRENCY = Number(process.env.BENCH_ENDPOINT_CONCURRENCY ?? 10);

async function main() {
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const databaseUrl = await createRunDatabase('bench_webhooks');
  const prefix = `test_bench_${runSuffix()}`;
  const config = parseConfig(mobilityConfigSchema, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: prefix,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CONCURRENCY),
    WEBHOOK_RELAY_INTERVAL_MS: '50',
  });
  const db = createDatabase(databaseUrl, MOBILITY_SCHEMA, 60, WORKER_DB_SETTINGS);
  const connection = createRedis(config.REDIS_URL);
  try {
    await migrateLatest(db, MOBILITY_SCHEMA, migrations);
    const secret = generateWebhookSecret();
    const sampleBody = JSON.stringify({ id: 'evt_x', type: 'ride.completed', created_at: new Date().toISOString(), data: sampleRide(0) });

    // Baseline: the same signed POSTs from one process, as many at a time as the pipeline may send to one endpoint,
    // with no queue and no database.
    const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, 10000);
    let next = 0;
    const baselineStart = performance.now();
    await Promise.all(
      Array.from({ length: ENDPOINT_CONCURRENCY }, async () => {
        while (next < EVENTS) {
          next += 1;
          const headers = signWebhook({ secret, id: newId('evt'), timestamp: Math.floor(Date.now() / 1000), body: sampleBody });
          const outcome = await sender.send(url, sampleBody, { 'Content-Type': 'application/json', ...headers });
          if (outcome.statusCode !== 200) throw new Error(`baseline POST failed: ${outcome.error ?? outcome.statusCode}`);
        }
      }),
    );
    const baselineSeconds = (performance.now() - baselineStart) / 1000;
    sender.close();

    // The pipeline: events committed to the outbox first (not timed), then the worker and its relay deliver them.
    const partnerId = 'org_bench';
    await db('webhook_endpoints').insert({ id: newId('whe'), partner_id: partnerId, url, events: ['ride.completed'], secret });
    for (let i = 0; i < EVENTS; i += 500) {
      await db.transaction(async (trx) => {
        for (let j = i; j < Math.min(EVENTS, i + 500); j++) {
          await appendOutboxEvent(trx, { partnerId, type: 'ride.completed', objectType: 'ride', objectId: `ride_${j}`, sequence: 1, data: sampleRide(j) });
        }
      });
    }
    received = 0;
    const pipelineStart = performance.now();
    const delivery = startWebhookDispatch({ db, connection, config, logger: pino({ level: 'silent' }) });
    for (;;) {
      const [row] = await db('webhook_deliveries').where({ status: 'succeeded' }).count<{ n: string }[]>('* as n');
      if (Number(row?.n) >= EVENTS) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pipelineSeconds = (performance.now() - pipelineStart) / 1000;
    await delivery.close();

    const baselineRate = EVENTS / baselineSeconds;
    const pipelineRate = EVENTS / pipelineSeconds;
    console.log(`events:                         ${EVENTS} (worker concurrency ${CONCURRENCY}, ${ENDPOINT_CONCURRENCY} in flight per endpoint, receiver on loopback)`);
    console.log(`baseline, plain signed POSTs:   ${baselineRate.toFixed(0)} /s (${baselineSeconds.toFixed(2)} s)`);
    console.log(`outbox → relay → BullMQ → POST: ${pipelineRate.toFixed(0)} deliveries/s (${pipelineSeconds.toFixed(2)} s, ${received} requests)`);
    console.log(`ratio pipeline / baseline:      ${(pipelineRate / baselineRate).toFixed(2)}`);
  } finally {
    connection.disconnect();
    await db.destroy();
    await dropRunDatabase(databaseUrl);
    await clearRedisPrefix(prefix);
    receiver.closeAllConnections();
    receiver.close();
  }
}

function sampleRide(i: number) {
  return {
    id: `ride_${i}`,
    status: 'completed',
    tier: 'economy',
    fare: { amount: 1850, currency: 'NGN' },
    pickup: { lat: 6.5244, lng: 3.3792 },
    dropoff: { lat: 6.4541, lng: 3.3947 },
    sequence: 5,
    updated_at: new Date().toISOString(),
  };
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
