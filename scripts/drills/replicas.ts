/**
 * Drill: two of everything (`pnpm start --replicas 2`: two gateways, two of each service, two workers) under ride
 * traffic spread over both gateways. Every outbox event must arrive once after its 2xx, the gateways must count one
 * rate limit between them, no ride may be accepted by two drivers; and the throughput of the same request mix through
 * one system of each size is measured, for one and for two replicas.
 */
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import { DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { readRunningState, workspaceRoot } from '../running-state';
import { createRedis } from '@platform/service-kit/redis';
import { startSystem, type RunningSystem } from '../system';
import type { DrillResult } from './drill';
import { compare, mobilityPartnerKey, onlineDrivers, outboxEventIds, query, randomCentre, registerEndpoint, rideTraffic, sleep, startReceiver, summarize, waitFor } from './lib';
import { REPLICA_PORT_STEP } from '../replicas';

const TRAFFIC_SECONDS = Number(process.env.DRILL_REPLICAS_SECONDS ?? 20);
const THROUGHPUT_SECONDS = Number(process.env.DRILL_REPLICAS_THROUGHPUT_SECONDS ?? 10);

export interface ReplicaRun {
  replicas: number;
  result: DrillResult;
  /** Requests per second through all gateways together (POST /api/v1/estimates, as fast as answered). */
  throughput: number;
  p99: number;
}

/** The same system seen through gateway replica `i` (the drill helpers call `system.gateway`). */
function throughGateway(system: RunningSystem, basePort: number, i: number): RunningSystem {
  return { ...system, gateway: `http://127.0.0.1:${basePort + REPLICA_PORT_STEP * i}` };
}

/**
 * A fresh partner key sends 20 requests alternately through the gateways; the one counter in Redis for that key
 * (`{prefix}:ratelimit:key:<sha256 of the token>`, its window opened by the first of them) must then hold all 20.
 */
async function sharedRateLimit(system: RunningSystem, views: RunningSystem[]): Promise<{ shared: boolean; counted: number; sent: number }> {
  const partner = await mobilityPartnerKey(system, 'drill_replicas_limit');
  const sent = 20;
  for (let i = 0; i < sent; i++) {
    const res = await fetch(`${views[i % views.length]!.gateway}/api/v1/rides?limit=1`, { headers: { authorization: partner } });
    await res.arrayBuffer();
  }
  await sleep(500); // hits granted in-process reach Redis every 50 ms
  const redis = createRedis(process.env.REDIS_URL ?? readRunningState(workspaceRoot(__dirname))?.redisUrl ?? DEFAULT_REDIS_URL);
  try {
    const token = partner.slice('Bearer '.length);
    const counted = Number(await redis.get(`${system.redisPrefix}:ratelimit:key:${createHash('sha256').update(token).digest('hex')}`));
    return { shared: counted === sent, counted, sent };
  } finally {
    redis.disconnect();
  }
}

async function throughput(views: RunningSystem[], partner: string): Promise<{ perSecond: number; p99: number }> {
  const body = JSON.stringify({ pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4281, lng: 3.4219 } });
  const results = await Promise.all(
    views.map((view) =>
      autocannon({
        url: view.gateway,
        connections: 16,
        duration: THROUGHPUT_SECONDS,
        requests: [{ method: 'POST', path: '/api/v1/estimates', headers: { authorization: partner, 'content-type': 'application/json' }, body }],
      }),
    ),
  );
  const perSecond = results.reduce((sum, r) => sum + r.requests.average, 0);
  return { perSecond, p99: Math.max(...results.map((r) => r.latency.p99)) };
}

export async function replicasDrill(basePort: number, replicas: number): Promise<ReplicaRun> {
  const receiver = await startReceiver();
  const system = await startSystem(`drill_replicas${replicas}`, basePort, {
    REPLICAS: String(replicas),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_BACKOFF_MS: '500',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
  });
  try {
    const views = Array.from({ length: replicas }, (_, i) => throughGateway(system, basePort, i));
    const partner = await mobilityPartnerKey(system, 'drill_replicas');
    await registerEndpoint(system, partner, receiver.url);
    const centre = randomCentre();
    const drivers = await onlineDrivers(system, 8, centre);
    // Half the drivers and half the rides through each gateway.
    const traffic = views.map((view, i) =>
      rideTraffic(
        view,
        partner,
        centre,
        drivers.filter((_, d) => d % replicas === i),
        4 / replicas,
      ),
    );
    await sleep(TRAFFIC_SECONDS * 1000);
    const finished = await Promise.all(traffic.map((t) => t.finish(60000)));
    const limit = await sharedRateLimit(system, views);
    const events = await outboxEventIds(system);
    await waitFor(() => events.every((id) => receiver.acknowledged.has(id)), 90000, () => `${receiver.acknowledged.size}/${events.length} events arrived`);
    await sleep(1500);
    const { lost, duplicates, arrived, extraRequests } = await compare(system, events, receiver);
    const doubleDispatched = await query<{ job_id: string }>(
      system,
      "select job_id from mobility.dispatch_offers where kind = 'ride' and status = 'accepted' group by job_id having count(*) > 1",
    );
    const doubleAccepted = await query<{ object_id: string }>(
      system,
      "select object_id from mobility.outbox_events where type = 'ride.accepted' group by object_id having count(*) > 1",
    );
    const measured = await throughput(views, partner);
    const createAnswers = traffic.flatMap((t) => t.createAnswers);
    const rides = traffic.reduce((sum, t) => sum + t.rideIds.length, 0);
    const completed = traffic.reduce((sum, t) => sum + t.driverStats.completed, 0);
    const cancelled = finished.reduce((sum, f) => sum + f.cancelled, 0);
    const problems = doubleDispatched.length + doubleAccepted.length + (limit.shared ? 0 : 1);
    return {
      replicas,
      throughput: measured.perSecond,
      p99: measured.p99,
      result: {
        name: `${replicas} replica${replicas > 1 ? 's' : ''} of everything`,
        sent: `${rides} rides through ${replicas} gateway${replicas > 1 ? 's' : ''} (create answers: ${summarize(createAnswers)}; ${completed} completed, ${cancelled} cancelled at the end); ${events.length} outbox events`,
        arrived:
          `${arrived} of ${events.length} events answered 2xx; ${extraRequests} requests beyond one per event (retries before a 2xx), ${duplicates} repeats after a 2xx; ` +
          `rides accepted by two drivers: ${doubleDispatched.length} (offers), ${doubleAccepted.length} (ride.accepted events); ` +
          `one rate-limit counter for a key used through every gateway: ${limit.counted} of ${limit.sent} requests counted${limit.shared ? '' : ' (NOT shared)'}`,
        lost,
        doubleApplied: duplicates + problems,
      },
    };
  } finally {
    await system.stop();
    await receiver.close().catch(() => undefined);
  }
}

/** `pnpm drill:replicas`: the drill with one replica, then with two; prints both and the throughput of each. */
async function main() {
  const runs: ReplicaRun[] = [];
  for (const replicas of [1, 2]) {
    console.log(`\n== ${replicas} replica${replicas > 1 ? 's' : ''}`);
    const run = await replicasDrill(29500, replicas);
    runs.push(run);
    const r = run.result;
    console.log(`\n${r.name}\n  sent:    ${r.sent}\n  arrived: ${r.arrived}\n  lost: ${r.lost}, double-applied: ${r.doubleApplied}`);
  }
  console.log(`\n| replicas | lost | double-applied | POST /api/v1/estimates req/s (${THROUGHPUT_SECONDS} s, 16 connections per gateway) | p99 ms |\n|---:|---:|---:|---:|---:|`);
  for (const run of runs) console.log(`| ${run.replicas} | ${run.result.lost} | ${run.result.doubleApplied} | ${run.throughput.toFixed(0)} | ${run.p99} |`);
  process.exitCode = runs.some((run) => run.result.lost || run.result.doubleApplied) ? 1 : 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
