/**
 * `pnpm bench:estimates`: the CPU the mobility service spends per POST /api/v1/estimates (API key, validation, pricing,
 * a GEOSEARCH per tier and index, one insert) against a bare node:http + pg + ioredis server doing the same I/O
 * (scripts/bench/bare-estimates-server.ts), in the same run, each measured alone on a core of its own (see pinnedCommand)
 * with autocannon on the other. Drivers of every tier are placed near the pickup, so both find one in the first radius.
 * Target: service CPU per request ≤ 2 × the bare server's. Uses its own database and Redis prefix, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { DEFAULT_DATABASE_URL, DEV_JWT_SECRET } from '@platform/service-kit/config';
import { DEFAULT_JWT_ISSUER, signAdminToken } from '@platform/service-kit/admin-auth';
import { createRedis } from '@platform/service-kit/redis';
import { dropDatabase } from '@platform/service-kit/db';
import { clearPrefix, load, MEASURED_CPU, pinSelfToFirstCore, printTable, startProcess, type LoadResult } from '@platform/bench-kit';
import { TIERS } from '@platform/mobility/tooling';

const PORTS = { service: 25001, bare: 25099 };
const PICKUP = { lat: 6.5244, lng: 3.3792 };

async function main() {
  pinSelfToFirstCore();
  const suffix = randomBytes(4).toString('hex');
  const database = new URL(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  database.pathname = `/bench_mobility_${suffix}`;
  const databaseUrl = database.toString();
  const prefix = `bench_estimates_${suffix}`;
  const env = { DATABASE_URL: databaseUrl, MOBILITY_DATABASE_URL: databaseUrl, REDIS_PREFIX: prefix, RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000000' };
  const children = [];
  const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    // The service creates and migrates its database on start.
    const service = await startProcess('services/mobility/src/server.ts', { ...env, PORT: String(PORTS.service), LOG_LEVEL: 'info' }, `http://127.0.0.1:${PORTS.service}/readyz`, MEASURED_CPU);
    children.push(service);
    const base = `http://127.0.0.1:${PORTS.service}`;
    const owner = signAdminToken({ sub: 'bench', org: `org_bench_${suffix}`, role: 'owner' }, DEV_JWT_SECRET, { issuer: DEFAULT_JWT_ISSUER });
    const key = (await fetch(`${base}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scopes: ['estimates:read'] }),
    }).then((r) => r.json())) as { token: string };
    for (const tier of TIERS) await redis.geoadd(`${prefix}:fleet:geo:driver:${tier}:platform`, PICKUP.lng + 0.001, PICKUP.lat, `drv_bench_${tier}`);
    const bare = await startProcess('scripts/bench/bare-estimates-server.ts', { ...env, PORT: String(PORTS.bare) }, `http://127.0.0.1:${PORTS.bare}/`, MEASURED_CPU);
    children.push(bare);

    const request = (port: number) => ({
      url: `http://127.0.0.1:${port}/api/v1/estimates`,
      method: 'POST' as const,
      headers: { 'Content-Type': 'application/json', 'X-API-KEY': key.token },
      body: JSON.stringify({ pickup: PICKUP, dropoff: { lat: 6.4281, lng: 3.4219 } }),
      connections: 10,
    });
    const probe = request(PORTS.service);
    const answer = (await fetch(probe.url, { method: probe.method, headers: probe.headers, body: probe.body }).then((r) => r.json())) as { estimates?: { available: boolean }[] };
    if (!answer.estimates?.every((e) => e.available)) throw new Error(`the seeded drivers were not found: ${JSON.stringify(answer)}`);
    const rows: LoadResult[] = [];
    const baseline = await load('bare node:http + pg + ioredis, same I/O (baseline)', request(PORTS.bare), [bare]);
    rows.push(baseline);
    bare.kill('SIGTERM');
    const measured = await load('mobility service, POST /api/v1/estimates', request(PORTS.service), [service]);
    rows.push(measured);
    printTable(`bench:estimates (${os.cpus().length} cores, 10 connections, 5 s each; CPU: the measured server only)`, rows, [
      ['service / bare requests/s', measured.requestsPerSecond / baseline.requestsPerSecond, 0.5],
    ]);
    if (measured.cpuMicrosPerRequest && baseline.cpuMicrosPerRequest) {
      const ratio = measured.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest;
      console.log(`service CPU / bare CPU per estimate: ${ratio.toFixed(2)} (target ≤ 2) ${ratio <= 2 ? 'OK' : 'ABOVE TARGET'}`);
    }
  } finally {
    children.forEach((child) => child.kill('SIGTERM'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    redis.disconnect();
    await dropDatabase(databaseUrl).catch(() => undefined);
    await clearPrefix(prefix);
  }
}

void main();
