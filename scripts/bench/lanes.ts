/**
 * `pnpm bench:lanes`: each fast lane against the route the app mounts from its route table, in the same run. Each
 * service runs twice on the same database and Redis prefix, with its lanes (`FAST_LANES=on`) and without (`off`), each
 * measured alone on a core of its own, in alternating rounds (each keeps its median round). A lane is worth keeping when
 * it saves at least 20 % of the server's CPU per request (lane / table route ≤ 0.80). Built entry points, as
 * `pnpm start` runs them; its own database and Redis prefix, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { DEFAULT_DATABASE_URL, DEV_JWT_SECRET } from '@platform/service-kit/config';
import { DEFAULT_JWT_ISSUER, signAdminToken } from '@platform/service-kit/admin-auth';
import { createRedis } from '@platform/service-kit/redis';
import { dropDatabase } from '@platform/service-kit/db';
import { alternatingRounds, buildIfStale, clearPrefix, load, MEASURED_CPU, pinSelfToFirstCore, startProcess, type LoadResult } from '@platform/bench-kit';
import { TIERS } from '@platform/mobility/tooling';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEEP_AT_MOST = 0.8;
const PORTS = { certificateOn: 26001, certificateOff: 26002, mobilityOn: 26011, mobilityOff: 26012 };
const PICKUP = { lat: 6.5244, lng: 3.3792 };
const DROPOFF = { lat: 6.4281, lng: 3.4219 };

interface Lane {
  name: string;
  request: (port: number) => { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
  on: { port: number; process: ChildProcess };
  off: { port: number; process: ChildProcess };
}

async function post<T>(url: string, token: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function measure(lane: Lane): Promise<{ lane: string; withLane: LoadResult; tableRoute: LoadResult }> {
  const target = (port: number) => ({ ...lane.request(port), connections: 10 });
  const [withLane, tableRoute] = await alternatingRounds(ROUNDS, [
    () => load(`${lane.name}: fast lane`, target(lane.on.port), [lane.on.process]),
    () => load(`${lane.name}: table-mounted route`, target(lane.off.port), [lane.off.process]),
  ]);
  return { lane: lane.name, withLane: withLane!, tableRoute: tableRoute! };
}

async function main() {
  buildIfStale();
  pinSelfToFirstCore();
  const suffix = randomBytes(4).toString('hex');
  const urlOf = (name: string) => {
    const url = new URL(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
    url.pathname = `/bench_lanes_${name}_${suffix}`;
    return url.toString();
  };
  const certificateDb = urlOf('certificate');
  const mobilityDb = urlOf('mobility');
  const prefix = `bench_lanes_${suffix}`;
  const children: ChildProcess[] = [];
  const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const start = async (service: 'certificate' | 'mobility', port: number, lanes: 'on' | 'off') => {
    const env = service === 'certificate' ? { DATABASE_URL: certificateDb } : { DATABASE_URL: mobilityDb, MOBILITY_DATABASE_URL: mobilityDb, REDIS_PREFIX: prefix };
    const child = await startProcess(`services/${service}/dist/server.js`, { ...env, PORT: String(port), FAST_LANES: lanes, RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000000' }, `http://127.0.0.1:${port}/readyz`, MEASURED_CPU);
    children.push(child);
    return { port, process: child };
  };
  try {
    // One process each first, so the migrations run once; then its twin.
    const certificateOn = await start('certificate', PORTS.certificateOn, 'on');
    const certificateOff = await start('certificate', PORTS.certificateOff, 'off');
    const mobilityOn = await start('mobility', PORTS.mobilityOn, 'on');
    const mobilityOff = await start('mobility', PORTS.mobilityOff, 'off');

    const certificateBase = `http://127.0.0.1:${PORTS.certificateOn}`;
    const owner = signAdminToken({ sub: 'acc_bench', org: `org_bench_${suffix}`, role: 'owner' }, DEV_JWT_SECRET, { issuer: DEFAULT_JWT_ISSUER });
    const certificateKey = await post<{ token: string }>(`${certificateBase}/admin/v1/api-keys`, owner, { name: 'bench' });
    const certificate = await post<{ verification_code: string }>(`${certificateBase}/admin/v1/certificates`, owner, { recipient_name: 'Ada Lovelace', program_title: 'Engines', issue_date: '2026-05-01' });

    const mobilityBase = `http://127.0.0.1:${PORTS.mobilityOn}`;
    const mobilityKey = await post<{ token: string }>(`${mobilityBase}/admin/v1/api-keys`, owner, { name: 'bench', scopes: ['estimates:read', 'rides:read', 'rides:write'] });
    for (const tier of TIERS) await redis.geoadd(`${prefix}:fleet:geo:driver:${tier}:platform`, PICKUP.lng + 0.001, PICKUP.lat, `drv_bench_${tier}`);
    const newRide = { pickup: PICKUP, dropoff: DROPOFF, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348012345678' } };
    const ride = await post<{ id: string }>(`${mobilityBase}/api/v1/rides`, mobilityKey.token, newRide);

    const partner = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });
    const lanes: Lane[] = [
      { name: 'GET /api/v1/verify/{code}', request: (port) => ({ url: `http://127.0.0.1:${port}/api/v1/verify/${certificate.verification_code}`, method: 'GET', headers: partner(certificateKey.token) }), on: certificateOn, off: certificateOff },
      { name: 'POST /api/v1/estimates', request: (port) => ({ url: `http://127.0.0.1:${port}/api/v1/estimates`, method: 'POST', headers: partner(mobilityKey.token), body: JSON.stringify({ pickup: PICKUP, dropoff: DROPOFF }) }), on: mobilityOn, off: mobilityOff },
      { name: 'POST /api/v1/rides', request: (port) => ({ url: `http://127.0.0.1:${port}/api/v1/rides`, method: 'POST', headers: partner(mobilityKey.token), body: JSON.stringify(newRide) }), on: mobilityOn, off: mobilityOff },
      { name: 'GET /api/v1/rides/{id}', request: (port) => ({ url: `http://127.0.0.1:${port}/api/v1/rides/${ride.id}`, method: 'GET', headers: partner(mobilityKey.token) }), on: mobilityOn, off: mobilityOff },
    ];
    const results = [];
    for (const lane of lanes) results.push(await measure(lane));

    console.log(`\nbench:lanes (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, 10 connections, 5 s a round, ${ROUNDS} rounds; CPU: the measured server only)\n`);
    console.log('| operation | lane CPU µs/request | table route CPU µs/request | lane / route | lane req/s | route req/s | non-2xx | verdict |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---|');
    for (const { lane, withLane, tableRoute } of results) {
      const ratio = (withLane.cpuMicrosPerRequest ?? 0) / (tableRoute.cpuMicrosPerRequest ?? 1);
      const verdict = ratio <= KEEP_AT_MOST ? 'keep (saves ≥ 20 %)' : 'remove (saves < 20 %)';
      console.log(`| ${lane} | ${withLane.cpuMicrosPerRequest?.toFixed(0) ?? '-'} | ${tableRoute.cpuMicrosPerRequest?.toFixed(0) ?? '-'} | ${ratio.toFixed(2)} | ${withLane.requestsPerSecond.toFixed(0)} | ${tableRoute.requestsPerSecond.toFixed(0)} | ${withLane.non2xx + tableRoute.non2xx} | ${verdict} |`);
    }
  } finally {
    children.forEach((child) => child.kill('SIGTERM'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    redis.disconnect();
    await Promise.all([dropDatabase(certificateDb), dropDatabase(mobilityDb)].map((drop) => drop.catch(() => undefined)));
    await clearPrefix(prefix);
  }
}

void main();
