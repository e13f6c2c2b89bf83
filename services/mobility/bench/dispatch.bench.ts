/**
 * `pnpm bench:dispatch`: nearest-driver search (Redis GEOSEARCH through FleetLocations) with 100,000 drivers of one
 * tier, spread over a 30 km square, half in the searching partner's index and half in the platform's (a search reads
 * both); prints p50/p99 latency and Redis's own GEOSEARCH time per search. BENCH_DRIVERS sets the count (10,000 to 1,000,000). Uses its own Redis prefix and removes it afterwards.
 */
import { randomBytes } from 'node:crypto';
import { createRedis } from '@platform/service-kit/redis';
import { DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { FleetLocations, scopesServing } from '@platform/mobility/tooling';

const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 5_000);
const RADIUS_M = Number(process.env.DISPATCH_RADIUS_M ?? 5000);
const CENTRE = { lat: 6.5244, lng: 3.3792 };

function around(spreadDeg: number) {
  return { lat: CENTRE.lat + (Math.random() - 0.5) * spreadDeg, lng: CENTRE.lng + (Math.random() - 0.5) * spreadDeg };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Microseconds Redis has spent in GEOSEARCH since it started (every client's). */
async function geosearchUsec(redis: ReturnType<typeof createRedis>): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(/cmdstat_geosearch:calls=\d+,usec=(\d+)/.exec(stats)?.[1] ?? 0);
}

async function main() {
  const redis = createRedis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  const prefix = `bench_dispatch_${randomBytes(4).toString('hex')}`;
  const locations = new FleetLocations(redis, prefix);
  const partnerId = 'org_bench';
  const keys = scopesServing(partnerId).map((scope) => locations.indexKey('driver', 'economy', scope));
  try {
    for (let start = 0; start < DRIVERS; start += 5000) {
      const args: (string | number)[] = [];
      for (let i = start; i < Math.min(DRIVERS, start + 5000); i++) {
        const p = around(0.27); // ≈ 30 km
        args.push(p.lng, p.lat, `drv_${i}`);
      }
      await redis.geoadd(keys[(start / 5000) % keys.length]!, ...args);
    }
    for (let i = 0; i < 200; i++) await locations.nearest('driver', 'economy', partnerId, around(0.2), RADIUS_M, 25); // warm-up
    const redisBefore = await geosearchUsec(redis);
    const timings: number[] = [];
    let found = 0;
    for (let i = 0; i < SEARCHES; i++) {
      const started = process.hrtime.bigint();
      const nearby = await locations.nearest('driver', 'economy', partnerId, around(0.2), RADIUS_M, 25);
      timings.push(Number(process.hrtime.bigint() - started) / 1e6);
      found += nearby.length;
    }
    const redisUs = ((await geosearchUsec(redis)) - redisBefore) / SEARCHES;
    timings.sort((a, b) => a - b);
    console.log(`nearest-driver search: ${(await Promise.all(keys.map((key) => redis.zcard(key)))).reduce((a, b) => a + b, 0).toLocaleString('en')} drivers indexed, ${SEARCHES} searches, radius ${RADIUS_M} m, 25 nearest`);
    console.log(`p50 ${percentile(timings, 50).toFixed(3)} ms   p99 ${percentile(timings, 99).toFixed(3)} ms   max ${timings.at(-1)!.toFixed(3)} ms   (avg ${(found / SEARCHES).toFixed(1)} found)`);
    // Redis's own time in GEOSEARCH per search (INFO commandstats): unlike the latency, it does not grow with whatever else loads the machine.
    console.log(`Redis GEOSEARCH time per search ${redisUs.toFixed(1)} µs (INFO commandstats; other clients' searches meanwhile count too)`);
  } finally {
    await redis.del(...keys);
    redis.disconnect();
  }
}

void main();
