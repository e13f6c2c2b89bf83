/**
 * `pnpm bench:webhooks`: the delivery pipeline (outbox → relay → BullMQ → signed POST → attempt log) in four
 * scenarios, each beside a raw loop measured in the same run (the same signed POSTs from one process, no queue, no
 * database, as many at a time as the pipeline may send):
 *   1. one endpoint, a receiver that answers at once (BENCH_EVENTS events, 5,000 by default);
 *   2. 100 endpoints of one partner (BENCH_EVENTS deliveries spread over them);
 *   3. one endpoint whose receiver takes 100 ms per answer (BENCH_SLOW_EVENTS, 500);
 *   4. commit → first POST latency while events commit at 200/s, one per transaction (BENCH_LATENCY_EVENTS, 600).
 * BENCH_SCALE_ENDPOINTS=1,100,1000 runs instead one row per count: BENCH_EVENTS deliveries to that many endpoints of one
 * partner (how the drain rate grows with the endpoints), each beside its raw loop.
 * Rows 1 and 2 and every scaling row also measure the durable floor (`durableFloor`): the same signed POSTs with the
 * same number in flight, plus only what makes a delivery survive a crash, its state and its attempt record, written to
 * the same tables in batched multi-row statements. pipeline / floor is what the engine's own machinery costs.
 * Needs local Postgres and Redis. The machine is shared, so figures are noisy: compare each with its own baseline.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createDatabase, migrateLatest, type Knex } from '@platform/service-kit/db';
import { createRedis } from '@platform/service-kit/redis';
import { newId } from '@platform/service-kit/ids';
import { parseConfig } from '@platform/service-kit/config';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, redisUrl, runSuffix } from '@platform/test-kit';
import { signWebhook, generateWebhookSecret } from '@platform/webhook-signature';
import { machineCpuMs, namedProcessesCpuMs } from '@platform/bench-kit';
import { createStatementBatcher } from '@platform/mobility/tooling';
import {
  appendOutboxEvent,
  createEndpointSecretCipher,
  createWebhookSender,
  migrations,
  MOBILITY_SCHEMA,
  mobilityConfigSchema,
  startWebhookDispatch,
  WORKER_DB_SETTINGS,
  type MobilityConfig,
} from '@platform/mobility/tooling';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const SLOW_EVENTS = Number(process.env.BENCH_SLOW_EVENTS ?? 500);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 600);
const CONCURRENCY = 50;
const ENDPOINT_CONCURRENCY = Number(process.env.BENCH_ENDPOINT_CONCURRENCY ?? 10);
const SLOW_ANSWER_MS = 100;
/** BENCH_SCALE_ENDPOINTS=1,100,1000: only the scaling rows, the drain rate with that many endpoints of one partner each. */
const SCALE_ENDPOINTS = (process.env.BENCH_SCALE_ENDPOINTS ?? '').split(',').filter(Boolean).map(Number);

interface Receiver {
  url: string;
  /** When the first POST of each event id arrived (performance.now()). */
  firstSeen: Map<string, number>;
  /** POSTs received so far. */
  received(): number;
  close(): void;
}

async function startReceiver(answerAfterMs = 0): Promise<Receiver> {
  const firstSeen = new Map<string, number>();
  let received = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const id = req.headers['webhook-id'];
    received += 1;
    if (typeof id === 'string' && !firstSeen.has(id)) firstSeen.set(id, performance.now());
    req.resume();
    req.on('end', () => {
      const answer = () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 });
        res.end('{}');
      };
      if (answerAfterMs > 0) setTimeout(answer, answerAfterMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    firstSeen,
    received: () => received,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Runs `work` (which handles `count` messages); answers its rate and the CPU each message cost this process, Postgres, Redis and the machine. */
async function measured(count: number, work: () => Promise<void>) {
  const cpu = process.cpuUsage();
  const machine = machineCpuMs();
  const postgres = namedProcessesCpuMs('postgres');
  const redis = namedProcessesCpuMs('redis-server');
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const per = (ms: number) => (ms * 1000) / count;
  return {
    rate: count / seconds,
    processUs: (used.user + used.system) / count,
    postgresUs: per(namedProcessesCpuMs('postgres') - postgres),
    redisUs: per(namedProcessesCpuMs('redis-server') - redis),
    machineUs: per(machineCpuMs() - machine),
  };
}

type Measured = Awaited<ReturnType<typeof measured>>;

/** The raw loop: `count` signed POSTs over `urls`, `parallel` at a time. */
async function rawLoop(urls: string[], count: number, parallel: number): Promise<Measured> {
  const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, 10000);
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ id: 'evt_x', type: 'ride.cancelled', created_at: new Date().toISOString(), data: sampleRide(0) });
  let next = 0;
  const result = await measured(count, async () => {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const url = urls[next % urls.length]!;
          next += 1;
          const headers = signWebhook({ secret, id: newId('evt'), timestamp: Math.floor(Date.now() / 1000), body });
          const outcome = await sender.send(url, body, { 'Content-Type': 'application/json', ...headers });
          if (outcome.statusCode !== 200) throw new Error(`raw POST failed: ${outcome.error ?? outcome.statusCode}`);
        }
      }),
    );
  });
  sender.close();
  return result;
}

interface FloorDelivery {
  id: string;
  url: string;
  secret: string;
  eventId: string;
  body: string;
}

/**
 * Deliveries for the floor, written before it is timed: `count` events of `partnerId` (committed through the outbox, as
 * the pipeline's are), one pending delivery row per event and endpoint, spread over `urls` in turn.
 */
async function floorDeliveries(db: Knex, config: MobilityConfig, partnerId: string, urls: string[], count: number): Promise<FloorDelivery[]> {
  const endpoints = await addEndpoints(db, config, partnerId, urls);
  await commitEvents(db, partnerId, Math.ceil(count / urls.length));
  const events = await db('outbox_events').where({ partner_id: partnerId }).select('id', 'body').orderBy('id');
  const deliveries: FloorDelivery[] = [];
  for (let i = 0; deliveries.length < count; i++) {
    const event = events[Math.floor(i / urls.length)]!;
    const endpoint = endpoints[i % urls.length]!;
    deliveries.push({ id: newId('whd'), url: endpoint.url, secret: endpoint.secret, eventId: event.id as string, body: JSON.stringify(event.body) });
  }
  const endpointOf = new Map(endpoints.map((e) => [e.url, e.id]));
  for (let i = 0; i < deliveries.length; i += 5000) {
    await db('webhook_deliveries').insert(deliveries.slice(i, i + 5000).map((d) => ({ id: d.id, event_id: d.eventId, endpoint_id: endpointOf.get(d.url), partner_id: partnerId, max_attempts: 5 })));
  }
  await db('outbox_events').where({ partner_id: partnerId }).update({ dispatched_at: db.fn.now() });
  return deliveries;
}

/**
 * The durable floor: each delivery signed and POSTed (`parallel` at a time, as the raw loop), then its state
 * (`succeeded`, attempts, status code, delivered_at) and its attempt record written; concurrent deliveries share one
 * statement (group commit), and a delivery counts only once its statement has committed. No queue, no claim, no
 * lease, no relay: what the pipeline adds beyond this is its own machinery.
 */
async function durableFloor(db: Knex, deliveries: FloorDelivery[], parallel: number): Promise<Measured> {
  const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, 10000);
  const record = createStatementBatcher(async (done: { id: string; status: number; ms: number }[]) => {
    const ids = done.map((d) => d.id);
    await db.raw(
      `with moved as (
         update webhook_deliveries d
            set status = 'succeeded', attempts = d.attempts + 1, last_status_code = t.status, delivered_at = now(), updated_at = now()
           from unnest(?::text[], ?::int[], ?::int[]) as t(id, status, ms)
          where d.id = t.id and d.id = any(?::text[])
      returning d.id, d.attempts, t.status, t.ms
       )
       insert into webhook_attempts (delivery_id, attempt, status_code, duration_ms) select id, attempts, status, ms from moved`,
      [ids, done.map((d) => d.status), done.map((d) => d.ms), ids] as unknown as Knex.RawBinding[],
    );
    return done.map(() => undefined);
  });
  let next = 0;
  const result = await measured(deliveries.length, async () => {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < deliveries.length) {
          const delivery = deliveries[next++]!;
          const started = performance.now();
          const headers = signWebhook({ secret: delivery.secret, id: delivery.eventId, timestamp: Math.floor(Date.now() / 1000), body: delivery.body });
          const outcome = await sender.send(delivery.url, delivery.body, { 'Content-Type': 'application/json', ...headers });
          if (outcome.statusCode !== 200) throw new Error(`floor POST failed: ${outcome.error ?? outcome.statusCode}`);
          await record({ id: delivery.id, status: outcome.statusCode, ms: Math.round(performance.now() - started) });
        }
      }),
    );
  });
  sender.close();
  const [row] = await db('webhook_deliveries').whereIn('id', deliveries.slice(0, 1000).map((d) => d.id)).whereNot({ status: 'succeeded' }).count<{ n: string }[]>('* as n');
  if (Number(row?.n) !== 0) throw new Error('the floor left deliveries unrecorded');
  return result;
}

/** pipeline against the floor and the raw loop, and the floor against the raw loop. */
function ratios(pipe: Measured, floor: Measured, raw: Measured): string {
  return `pipeline / floor ${(pipe.rate / floor.rate).toFixed(2)}, pipeline / raw ${(pipe.rate / raw.rate).toFixed(2)}, floor / raw ${(floor.rate / raw.rate).toFixed(2)}`;
}

/** One endpoint of `partnerId` per url, subscribed to ride.cancelled; answers each with its signing secret in plaintext. */
async function addEndpoints(db: Knex, config: MobilityConfig, partnerId: string, urls: string[]): Promise<{ id: string; url: string; secret: string }[]> {
  const cipher = createEndpointSecretCipher(config);
  const endpoints = urls.map((url) => ({ id: newId('whe'), url, secret: generateWebhookSecret() }));
  await db('webhook_endpoints').insert(endpoints.map((e) => ({ id: e.id, partner_id: partnerId, url: e.url, events: ['ride.cancelled'], secret: cipher.encrypt(e.id, e.secret) })));
  return endpoints;
}

async function commitEvents(db: Knex, partnerId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 500) {
    await db.transaction(async (trx) => {
      for (let j = i; j < Math.min(count, i + 500); j++) {
        await appendOutboxEvent(trx, { partnerId, type: 'ride.cancelled', objectType: 'ride', objectId: `ride_${partnerId}_${j}`, sequence: 1, data: sampleRide(j) });
      }
    });
  }
}

async function succeededOf(db: Knex, partnerId: string): Promise<number> {
  const [row] = await db('webhook_deliveries').where({ status: 'succeeded', partner_id: partnerId }).count<{ n: string }[]>('* as n');
  return Number(row?.n);
}

/**
 * Commits the events, then starts a worker and times it until every delivery has succeeded. The receiver's count says
 * when the last POST arrived; only from then on is Postgres asked (every 20 ms) whether every attempt is recorded, so
 * the bench's own polling does not load the database it measures.
 */
async function pipeline(db: Knex, config: MobilityConfig, partnerId: string, receiver: Receiver, deliveries: number, eventsToCommit: number): Promise<Measured> {
  await commitEvents(db, partnerId, eventsToCommit);
  const connection = createRedis(config.REDIS_URL);
  let delivery: ReturnType<typeof startWebhookDispatch> | undefined;
  const receivedBefore = receiver.received();
  const result = await measured(deliveries, async () => {
    delivery = startWebhookDispatch({ db, connection, config, logger: pino({ level: 'silent' }), appendEvent: appendOutboxEvent });
    while (receiver.received() - receivedBefore < deliveries) await sleep(5);
    while ((await succeededOf(db, partnerId)) < deliveries) await sleep(20);
  });
  await delivery?.close();
  connection.disconnect();
  return result;
}

/** CPU per message: this process (worker, relay and receiver; the raw loop and receiver) and the whole machine. */
function cpuOf(pipe: Measured, raw: Measured): string {
  const us = (n: number) => `${Math.round(n)} µs`;
  return `CPU per delivery: this process ${us(pipe.processUs)} (raw ${us(raw.processUs)}), Postgres ${us(pipe.postgresUs)}, Redis ${us(pipe.redisUs)}, machine ${us(pipe.machineUs)} (raw ${us(raw.machineUs)})`;
}

/** Events commit one per transaction at 200/s to a running worker; milliseconds from each commit to its first POST. */
async function commitToFirstPost(db: Knex, config: MobilityConfig, partnerId: string, receiver: Receiver): Promise<number[]> {
  const connection = createRedis(config.REDIS_URL);
  const delivery = startWebhookDispatch({ db, connection, config, logger: pino({ level: 'silent' }), appendEvent: appendOutboxEvent });
  await delivery.worker.waitUntilReady();
  await sleep(500); // the LISTEN connection is up
  const committedAt = new Map<string, number>();
  const started = performance.now();
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const due = started + i * 5;
    if (due > performance.now()) await sleep(due - performance.now());
    const body = await db.transaction((trx) =>
      appendOutboxEvent(trx, { partnerId, type: 'ride.cancelled', objectType: 'ride', objectId: `ride_latency_${i}`, sequence: 1, data: sampleRide(i) }),
    );
    committedAt.set(body.id, performance.now());
  }
  while ((await succeededOf(db, partnerId)) < LATENCY_EVENTS) await sleep(20);
  await delivery.close();
  connection.disconnect();
  return [...committedAt].map(([id, at]) => receiver.firstSeen.get(id)! - at).sort((a, b) => a - b);
}

/** The raw loop's own latency: one signed POST at a time, from signing to the receiver seeing it. */
async function rawLatency(receiver: Receiver, count: number): Promise<number[]> {
  const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, 10000);
  const secret = generateWebhookSecret();
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId('evt');
    const body = JSON.stringify({ id, type: 'ride.cancelled', created_at: new Date().toISOString(), data: sampleRide(i) });
    const started = performance.now();
    await sender.send(`${receiver.url}/raw`, body, { 'Content-Type': 'application/json', ...signWebhook({ secret, id, timestamp: Math.floor(Date.now() / 1000), body }) });
    latencies.push(receiver.firstSeen.get(id)! - started);
  }
  sender.close();
  return latencies.sort((a, b) => a - b);
}

async function main() {
  const fast = await startReceiver();
  const slow = await startReceiver(SLOW_ANSWER_MS);
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
    WEBHOOK_MAX_ENDPOINTS_PER_PARTNER: '100',
  });
  const db = createDatabase(databaseUrl, MOBILITY_SCHEMA, 60, WORKER_DB_SETTINGS);
  const rate = (n: number) => `${n.toFixed(0)}/s`;
  try {
    await migrateLatest(db, MOBILITY_SCHEMA, migrations);
    console.log(`worker concurrency ${CONCURRENCY}, ${ENDPOINT_CONCURRENCY} in flight per endpoint, receivers on loopback`);
    if (SCALE_ENDPOINTS.length > 0) {
      // Each event goes to every endpoint; the raw loop sends to them all with as many in flight as the pipeline may.
      for (const count of SCALE_ENDPOINTS) {
        const urls = Array.from({ length: count }, (_v, i) => `${fast.url}/s${count}_${i}`);
        const partnerId = `org_bench_scale_${count}`;
        await addEndpoints(db, config, partnerId, urls);
        const deliveries = Math.max(count, Math.floor(EVENTS / count) * count);
        const parallel = Math.min(CONCURRENCY, count * ENDPOINT_CONCURRENCY);
        const raw = await rawLoop(urls, deliveries, parallel);
        const floorUrls = Array.from({ length: count }, (_v, i) => `${fast.url}/f${count}_${i}`);
        const floor = await durableFloor(db, await floorDeliveries(db, config, `${partnerId}_floor`, floorUrls, deliveries), parallel);
        const piped = await pipeline(db, config, partnerId, fast, deliveries, deliveries / count);
        console.log(`${count} endpoints: pipeline ${rate(piped.rate)}, durable floor ${rate(floor.rate)}, raw loop ${rate(raw.rate)} (${parallel} at a time): ${ratios(piped, floor, raw)} [${deliveries} deliveries]`);
        console.log(`                               ${cpuOf(piped, raw)}; floor: this process ${Math.round(floor.processUs)} µs, Postgres ${Math.round(floor.postgresUs)} µs, machine ${Math.round(floor.machineUs)} µs`);
      }
      return;
    }

    // 1. One endpoint, instant receiver.
    const oneUrl = `${fast.url}/one`;
    await addEndpoints(db, config, 'org_bench_one', [oneUrl]);
    const rawOne = await rawLoop([oneUrl], EVENTS, ENDPOINT_CONCURRENCY);
    const floorOne = await durableFloor(db, await floorDeliveries(db, config, 'org_bench_one_floor', [`${fast.url}/one_floor`], EVENTS), ENDPOINT_CONCURRENCY);
    const pipeOne = await pipeline(db, config, 'org_bench_one', fast, EVENTS, EVENTS);
    console.log(`1 endpoint, instant receiver:  pipeline ${rate(pipeOne.rate)}, durable floor ${rate(floorOne.rate)}, raw loop ${rate(rawOne.rate)} (${ENDPOINT_CONCURRENCY} at a time): ${ratios(pipeOne, floorOne, rawOne)} [${EVENTS} events]`);
    console.log(`                               ${cpuOf(pipeOne, rawOne)}; floor: this process ${Math.round(floorOne.processUs)} µs, Postgres ${Math.round(floorOne.postgresUs)} µs`);

    // 2. 100 endpoints of one partner: each event goes to all of them.
    const hundred = Array.from({ length: 100 }, (_v, i) => `${fast.url}/e${i}`);
    await addEndpoints(db, config, 'org_bench_hundred', hundred);
    const deliveries = Math.max(100, Math.floor(EVENTS / 100) * 100);
    const rawHundred = await rawLoop(hundred, deliveries, CONCURRENCY);
    const floorHundred = await durableFloor(db, await floorDeliveries(db, config, 'org_bench_hundred_floor', Array.from({ length: 100 }, (_v, i) => `${fast.url}/f${i}`), deliveries), CONCURRENCY);
    const pipeHundred = await pipeline(db, config, 'org_bench_hundred', fast, deliveries, deliveries / 100);
    console.log(`100 endpoints, one partner:    pipeline ${rate(pipeHundred.rate)}, durable floor ${rate(floorHundred.rate)}, raw loop ${rate(rawHundred.rate)} (${CONCURRENCY} at a time): ${ratios(pipeHundred, floorHundred, rawHundred)} [${deliveries} deliveries]`);
    console.log(`                               ${cpuOf(pipeHundred, rawHundred)}; floor: this process ${Math.round(floorHundred.processUs)} µs, Postgres ${Math.round(floorHundred.postgresUs)} µs`);

    // 3. One endpoint whose receiver takes 100 ms: the ceiling is ENDPOINT_CONCURRENCY / 0.1 s.
    const slowUrl = `${slow.url}/slow`;
    await addEndpoints(db, config, 'org_bench_slow', [slowUrl]);
    const rawSlow = await rawLoop([slowUrl], SLOW_EVENTS, ENDPOINT_CONCURRENCY);
    const pipeSlow = await pipeline(db, config, 'org_bench_slow', slow, SLOW_EVENTS, SLOW_EVENTS);
    const ceiling = ENDPOINT_CONCURRENCY / (SLOW_ANSWER_MS / 1000);
    console.log(`1 endpoint, 100 ms receiver:   pipeline ${rate(pipeSlow.rate)} vs raw loop ${rate(rawSlow.rate)} (${ENDPOINT_CONCURRENCY} at a time), ceiling ${rate(ceiling)}: ${(pipeSlow.rate / ceiling).toFixed(2)} of the ceiling [${SLOW_EVENTS} events]`);

    // 4. Commit → first POST while events commit at 200/s.
    const latencyUrl = `${fast.url}/latency`;
    await addEndpoints(db, config, 'org_bench_latency', [latencyUrl]);
    const raw = await rawLatency(fast, 200);
    const latencies = await commitToFirstPost(db, config, 'org_bench_latency', fast);
    console.log(
      `commit → first POST at 200/s:  p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms vs raw POST p50 ${percentile(raw, 0.5).toFixed(1)} ms, p99 ${percentile(raw, 0.99).toFixed(1)} ms [${LATENCY_EVENTS} events]`,
    );
  } finally {
    await db.destroy();
    await dropRunDatabase(databaseUrl);
    await clearRedisPrefix(prefix);
    fast.close();
    slow.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sampleRide(i: number) {
  return {
    id: `ride_${i}`,
    status: 'cancelled',
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
