/**
 * `pnpm bench:webhooks-api`: the webhook engine as a partner meets it. The whole stack (`pnpm start`'s compiled parts
 * and defaults: LOG_LEVEL info, WEBHOOK_CONCURRENCY, WEBHOOK_ENDPOINT_CONCURRENCY) runs on its own ports, database and
 * Redis prefix; the worker is frozen (SIGSTOP) while BENCH_API_EVENTS (5,000) rides are created and cancelled through
 * the gateway (each ride also leaves its dispatch timers for the worker), then resumed (SIGCONT): the drain rate is the
 * events over the time from the resume until the receiver has had every one. Beside it, in the same run, a raw loop of
 * signed POSTs to the same receiver with as many in flight as the pipeline's per-endpoint cap. The direct-insert figure
 * (rows written by the bench, a worker with nothing else to do) stays in `pnpm bench:webhooks`.
 * The machine is shared: compare the ratio, not the rates.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, generateWebhookSecret } from '@platform/webhook-signature';
import { createWebhookSender } from '@platform/mobility/tooling';
import { createRedis } from '@platform/service-kit/redis';
import { DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { startSystem, type RunningSystem } from '../system';
import { callJson, mobilityPartnerKey, outboxEventIds, query, randomCentre, registerEndpoint, rideBody, sleep } from '../drills/lib';
import { machineCpuMs, processCpuMs } from '@platform/bench-kit';

const EVENTS = Number(process.env.BENCH_API_EVENTS ?? 5000); // a drain long enough (about a second) that its first-POST latency does not dominate the rate;
const IN_FLIGHT = Number(process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 10); // the pipeline's per-endpoint cap (its default)
const PRODUCERS = 20;

function startReceiver() {
  const firstSeen = new Map<string, number>();
  let received = 0;
  const server = createServer((req: IncomingMessage, res) => {
    received += 1;
    const id = String(req.headers['webhook-id'] ?? '');
    if (!firstSeen.has(id)) firstSeen.set(id, performance.now());
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 });
      res.end('{}');
    });
  });
  return new Promise<{ url: string; firstSeen: Map<string, number>; received: () => number; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        firstSeen,
        received: () => received,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

/** `count` signed POSTs of a ride.cancelled-sized body, `parallel` at a time; answers deliveries per second. */
async function rawLoop(url: string, count: number, parallel: number): Promise<{ rate: number; cpuUs: number }> {
  const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, 10000);
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ id: 'evt_x', type: 'ride.cancelled', created_at: new Date().toISOString(), livemode: true, data: { id: 'ride_x', status: 'cancelled', sequence: 2 } });
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        const id = `evt_raw_${randomBytes(8).toString('hex')}`;
        const outcome = await sender.send(url, body, { 'Content-Type': 'application/json', ...signWebhook({ secret, id, timestamp: Math.floor(Date.now() / 1000), body }) });
        if (outcome.statusCode !== 200) throw new Error(`raw POST failed: ${outcome.error ?? outcome.statusCode}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  sender.close();
  return { rate: count / seconds, cpuUs: (used.user + used.system) / count }; // the loop and the receiver, one process
}

async function waitForOutput(output: () => string, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`"${text}" did not appear within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Dispatch timers the worker would run: offer expiries and search timeouts delayed or waiting in BullMQ, and search retries. */
async function dispatchTimersWaiting(system: RunningSystem): Promise<number> {
  const redis = createRedis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  try {
    const queue = `${system.redisPrefix}:dispatch-timers`;
    const [delayed, waiting, retries] = await Promise.all([redis.zcard(`${queue}:delayed`), redis.llen(`${queue}:wait`), redis.zcard(`${system.redisPrefix}:dispatch:search-retries`)]);
    return delayed + waiting + retries;
  } finally {
    redis.disconnect();
  }
}

async function main() {
  const receiver = await startReceiver();
  const system = await startSystem('bench_webhooks_api', Number(process.env.BENCH_API_PORT ?? 29500), {
    START_WITHOUT_WORKER: 'true', // the bench starts the worker itself, to freeze it
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', // pnpm start's default (the system helper's is warn)
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
    // What `pnpm start` gives its own worker outside production (a receiver on loopback over http).
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const worker = system.startWorker();
  try {
    // Its 'worker started' line is info; below that level, give it the few seconds it takes.
    if (['info', 'debug', 'trace'].includes(process.env.LOG_LEVEL ?? 'info')) await waitForOutput(system.output, 'worker started', 60000);
    else await sleep(5000);
    const partner = await mobilityPartnerKey(system, 'bench_api');
    await registerEndpoint(system, partner, receiver.url);
    await sleep(500);
    worker.kill('SIGSTOP');
    const far = randomCentre(); // no driver anywhere: each ride waits (its timers scheduled) until cancelled
    let next = 0;
    const failures: number[] = [];
    const producedStart = performance.now();
    await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        while (next < EVENTS) {
          next += 1;
          const created = await callJson(`${system.gateway}/api/v1/rides`, 'POST', partner, rideBody(far));
          if (created.status !== 201) {
            failures.push(created.status);
            continue;
          }
          const cancelled = await callJson(`${system.gateway}/api/v1/rides/${created.body.id as string}/cancel`, 'POST', partner, {});
          if (cancelled.status !== 200) failures.push(cancelled.status);
        }
      }),
    );
    const produceSeconds = (performance.now() - producedStart) / 1000;
    const timersWaiting = await dispatchTimersWaiting(system);
    const events = await outboxEventIds(system);
    const expected = events.length;
    // The raw loop runs just before the drain and just after it; the ratio uses their mean (the machine is shared).
    const rawBefore = await rawLoop(receiver.url.replace('/hooks', '/raw'), expected, IN_FLIGHT);
    const machineBefore = machineCpuMs();
    const workerBefore = processCpuMs(worker.pid);
    const resumed = performance.now();
    const resumedAt = Date.now();
    worker.kill('SIGCONT');
    const deadline = Date.now() + 120000;
    while (events.some((id) => !receiver.firstSeen.has(id))) {
      if (Date.now() > deadline) {
        const tail = system.output().split('\n').slice(-40).join('\n');
        throw new Error(`only ${events.filter((id) => receiver.firstSeen.has(id)).length}/${expected} events arrived within 120 s of the resume; the system's last lines:\n${tail}`);
      }
      await sleep(5);
    }
    const drainSeconds = (performance.now() - resumed) / 1000;
    const firstPostMs = Math.min(...events.map((id) => receiver.firstSeen.get(id)!)) - resumed;
    const workerUs = ((processCpuMs(worker.pid) - workerBefore) * 1000) / expected;
    const machineUs = ((machineCpuMs() - machineBefore) * 1000) / expected;
    const pipelineRate = expected / drainSeconds;
    // When the relay's transactions began (dispatched_at is the transaction's now()), by the database's clock.
    const [relayed] = await query<{ first: Date; last: Date }>(system, 'select min(dispatched_at) as first, max(dispatched_at) as last from mobility.outbox_events');
    const relayMs = `${relayed!.first.getTime() - resumedAt}–${relayed!.last.getTime() - resumedAt} ms`;
    const rawAfter = await rawLoop(receiver.url.replace('/hooks', '/raw'), expected, IN_FLIGHT);
    const rawRate = (rawBefore.rate + rawAfter.rate) / 2;
    const rawCpuUs = (rawBefore.cpuUs + rawAfter.cpuUs) / 2;
    const repeats = receiver.received() - receiver.firstSeen.size;
    console.log(`full stack (pnpm start defaults), ${IN_FLIGHT} in flight per endpoint, receiver on loopback`);
    console.log(`| row | deliveries/s | raw signed-POST loop (${IN_FLIGHT} in flight), before / after | ratio |\n|---|---:|---:|---:|`);
    console.log(
      `| backlog of ${expected} ride.cancelled events made through the gateway, drained after SIGCONT | ${pipelineRate.toFixed(0)} | ${rawBefore.rate.toFixed(0)} / ${rawAfter.rate.toFixed(0)} | ${(pipelineRate / rawRate).toFixed(2)} |`,
    );
    console.log(
      `produced in ${produceSeconds.toFixed(1)} s (${failures.length} API answers not 2xx); drained in ${drainSeconds.toFixed(2)} s (relay transactions began ${relayMs} and the first POST arrived ${firstPostMs.toFixed(0)} ms after the resume); worker CPU ${workerUs.toFixed(0)} µs per delivery (raw loop and its receiver ${rawCpuUs.toFixed(0)} µs per POST), machine ${machineUs.toFixed(0)} µs; ${repeats} repeated POSTs; ${timersWaiting} dispatch timers waiting for the worker at the resume`,
    );
    for (const line of system.output().split('\n').filter((l) => l.includes('outbox relay moved'))) {
      const { events: n, transactionMs, enqueueMs } = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, number>;
      console.log(`relay batch: ${n} events, transaction ${transactionMs} ms, enqueue ${enqueueMs} ms`);
    }
    console.log('direct-insert figure (rows written by the bench, worker doing nothing else): pnpm bench:webhooks');
  } finally {
    worker.kill('SIGCONT'); // a worker still frozen could not stop
    await system.stop();
    receiver.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
