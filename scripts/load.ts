/**
 * `pnpm load`: a mixed load through the gateway at a fixed rate (LOAD_RATE requests/s in all, LOAD_SECONDS long,
 * default 200/s for 60 s), printing throughput, p50/p99/p99.9 latency and non-2xx answers by status for each scenario.
 * The load is open loop (`runOpenLoop` of bench-kit): arrivals are spread evenly, or as a Poisson process with
 * LOAD_ARRIVALS=poisson, each request leaves at its time whatever the answers do, and its latency counts from that
 * intended time; the sockets opened, any request that waited for one and the generator's own lateness are printed.
 *
 * Scenarios (share of the rate): certificate verify and credits; mobility estimates, ride creation (no Idempotency-Key,
 * so every request creates a ride; a few drivers are online 50 km away, outside the dispatch radius, so rides stay
 * `pending` and search), ride get, and delivery get — only when the running mobility service has deliveries
 * (`POST /api/v1/deliveries` is probed first; a 404 `route_not_found` skips that scenario with a note).
 * The rate limits are raised so they count but never refuse: per key (LOAD_RATE_LIMIT_PER_MINUTE), per client address
 * (LOAD_RATE_LIMIT_PER_ADDRESS_PER_MINUTE) and per organization (LOAD_RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE), default 1,000,000 each.
 */
import { loadavg } from 'node:os';
import { MOBILITY_SCOPES } from '@platform/api-keys';
import { DEFAULT_JWT_ISSUER, signAdminToken, signDriverToken } from '@platform/service-kit/admin-auth';
import {
  descendantsCpuMs,
  machineCpuMs,
  namedProcessesCpuMs,
  processCpuMs,
  runOpenLoop,
  type Arrivals,
  type OpenLoopResult,
  type OpenLoopScenario,
} from '@platform/bench-kit';
import { checkoutJwtSecret } from './dev-secrets';
import { workspaceRoot } from './running-state';
import { startSystem, type RunningSystem } from './system';

type Scenario = OpenLoopScenario;

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const rate = Number(process.env.LOAD_RATE ?? 200);
const arrivals = (process.env.LOAD_ARRIVALS ?? 'even') as Arrivals;
// The system's own: `pnpm start` of this checkout uses .data/dev-secrets.json when JWT_SECRET is unset.
const secret = checkoutJwtSecret(workspaceRoot(__dirname));
const tokenOptions = { issuer: process.env.JWT_ISSUER ?? DEFAULT_JWT_ISSUER };
const CENTRE = { lat: 6.5244, lng: 3.3792 };
const PICKUP = { lat: 6.4541, lng: 3.3947, address: '1 Marina Road' };
const DROPOFF = { lat: 6.4281, lng: 3.4219, address: '12 Admiralty Way' };

async function send(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

async function call(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const { status, body } = await send(url, init);
  if (status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

async function certificateScenarios(system: RunningSystem): Promise<Scenario[]> {
  const admin = `Bearer ${signAdminToken({ sub: 'load_owner', org: 'load_org', org_name: 'Load Academy', role: 'owner' }, secret, tokenOptions)}`;
  const key = await call(`${system.certificate}/admin/v1/api-keys`, { method: 'POST', headers: { authorization: admin }, body: JSON.stringify({ name: 'load' }) });
  const cert = await call(`${system.certificate}/admin/v1/certificates`, {
    method: 'POST',
    headers: { authorization: admin },
    body: JSON.stringify({ recipient_name: 'Ada Lovelace', program_title: 'Engines', issue_date: '2026-05-01' }),
  });
  const headers = { authorization: `Bearer ${key.token as string}` };
  return [
    { name: 'GET /api/v1/verify/{code}', share: 0.3, request: { method: 'GET', path: `/api/v1/verify/${cert.verification_code as string}`, headers } },
    { name: 'GET /api/v1/credits', share: 0.15, request: { method: 'GET', path: '/api/v1/credits', headers } },
  ];
}

async function mobilityScenarios(system: RunningSystem): Promise<Scenario[]> {
  const owner = `Bearer ${signAdminToken({ sub: 'load_owner', org: 'load_partner', org_name: 'Load Partner', role: 'owner' }, secret, tokenOptions)}`;
  const key = await call(`${system.mobility}/admin/v1/api-keys`, { method: 'POST', headers: { authorization: owner }, body: JSON.stringify({ name: 'load', scopes: MOBILITY_SCOPES }) });
  const headers = { authorization: `Bearer ${key.token as string}`, 'content-type': 'application/json' };

  // A few platform drivers (serving every partner) online 50 km north of the city: estimates search for them, rides stay pending (out of range).
  const operator = `Bearer ${signAdminToken({ sub: 'load_operator', org: 'load_fleet', role: 'platform_operator' }, secret, tokenOptions)}`;
  for (let i = 0; i < 5; i++) {
    const driver = await call(`${system.mobility}/admin/v1/drivers`, {
      method: 'POST',
      headers: { authorization: operator },
      body: JSON.stringify({ name: `Load driver ${i}`, phone: '+234 801 234 5678', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: `LOAD-${i}`, color: 'silver' } }),
    });
    const auth = { authorization: `Bearer ${signDriverToken(driver.id as string, secret, tokenOptions)}` };
    await call(`${system.gateway}/driver/v1/location`, { method: 'POST', headers: auth, body: JSON.stringify({ lat: CENTRE.lat + 0.45 + i * 0.001, lng: CENTRE.lng, heading: 0, speed_kph: 0 }) });
    await call(`${system.gateway}/driver/v1/availability`, { method: 'POST', headers: auth, body: JSON.stringify({ available: true }) });
  }

  const rideBody = JSON.stringify({ pickup: PICKUP, dropoff: DROPOFF, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+234 802 000 0000' } });
  const ride = await call(`${system.gateway}/api/v1/rides`, { method: 'POST', headers, body: rideBody });
  const scenarios: Scenario[] = [
    { name: 'POST /api/v1/estimates', share: 0.15, request: { method: 'POST', path: '/api/v1/estimates', headers, body: JSON.stringify({ pickup: PICKUP, dropoff: DROPOFF }) } },
    { name: 'POST /api/v1/rides', share: 0.1, request: { method: 'POST', path: '/api/v1/rides', headers, body: rideBody } },
    { name: 'GET /api/v1/rides/{id}', share: 0.15, request: { method: 'GET', path: `/api/v1/rides/${ride.id as string}`, headers } },
  ];

  // A build without deliveries (an older image) answers 404: use them only when this build serves them.
  const probe = await send(`${system.gateway}/api/v1/deliveries`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      pickup: PICKUP,
      dropoff: DROPOFF,
      sender: { name: 'Shop', phone: '+234 801 000 0000' },
      recipient: { name: 'Ada Obi', phone: '+234 802 000 0000' },
      weight_tier: 'small',
    }),
  });
  if (probe.status === 404 && probe.body.code === 'route_not_found') {
    console.log('note: POST /api/v1/deliveries answers 404 route_not_found (deliveries not in this build): GET /api/v1/deliveries/{id} skipped');
  } else if (probe.status === 201 && typeof probe.body.id === 'string') {
    scenarios.push({ name: 'GET /api/v1/deliveries/{id}', share: 0.15, request: { method: 'GET', path: `/api/v1/deliveries/${probe.body.id}`, headers } });
  } else {
    console.log(`note: POST /api/v1/deliveries answered ${probe.status} ${JSON.stringify(probe.body).slice(0, 200)}: GET /api/v1/deliveries/{id} skipped`);
  }
  return scenarios;
}

async function main() {
  if (arrivals !== 'even' && arrivals !== 'poisson') throw new Error(`LOAD_ARRIVALS is ${arrivals}: even (the default) or poisson`);
  const system = await startSystem('load', 28080, {
    RATE_LIMIT_PER_MINUTE: process.env.LOAD_RATE_LIMIT_PER_MINUTE ?? '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: process.env.LOAD_RATE_LIMIT_PER_ADDRESS_PER_MINUTE ?? '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: process.env.LOAD_RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE ?? '1000000',
  });
  try {
    // LOAD_ONLY=<part of a scenario's name> runs only the matching scenarios, each at its share of LOAD_RATE (a scenario's own cost).
    const only = process.env.LOAD_ONLY;
    const all = [...(await certificateScenarios(system)), ...(await mobilityScenarios(system))];
    const total = all.reduce((sum, s) => sum + s.share, 0);
    const scenarios = all.filter((s) => !only || s.name.includes(only));
    // Each scenario keeps its share of LOAD_RATE, also when LOAD_ONLY leaves others out.
    const runRate = (rate * scenarios.reduce((sum, s) => sum + s.share, 0)) / total;
    console.log(`pnpm load: ${rate} requests/s for ${seconds} s through ${system.gateway}, ${arrivals} arrivals, open loop (latency from each request's intended send time)\n`);
    const cpuBefore = cpuSnapshot(system);
    const result = await runOpenLoop({ url: system.gateway, rate: runRate, seconds, scenarios, arrivals });
    printResult(result);
    printCpu(cpuBefore, cpuSnapshot(system), result.answered);
  } finally {
    await system.stop();
  }
}

const ms = (value: number): string => (value < 10 ? value.toFixed(1) : value.toFixed(0));

/** Per scenario: rates, latency from the intended send time, answers that were not 2xx; then the client's sockets and lateness. */
function printResult(result: OpenLoopResult): void {
  console.log('| scenario | target/s | sent/s | answered/s | p50 ms | p99 ms | p99.9 ms | non-2xx by status |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const s of result.scenarios) {
    const failures = [
      ...Object.entries(s.statuses)
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, count]) => `${status}: ${count}`),
      ...Object.entries(s.errors).map(([error, count]) => `${error}: ${count}`),
    ];
    console.log(
      `| ${s.name} | ${s.targetPerSecond.toFixed(0)} | ${(s.sent / seconds).toFixed(0)} | ${(s.answered / seconds).toFixed(0)} | ${ms(s.latency.p50)} | ${ms(s.latency.p99)} | ${ms(s.latency.p999)} | ${failures.join(', ') || 'none'} |`,
    );
  }
  const queued = result.queuedForSocket
    ? `${result.queuedForSocket} requests waited for a socket (all ${result.maxSockets} busy; the wait is in their latency)`
    : 'client never queued';
  console.log(`\nclient: ${result.socketsOpened} sockets opened, at most ${result.maxInFlight} requests in flight; ${queued}`);
  const lag = result.scheduleLag;
  const saturated = lag.p99 > 10 ? ' — the load generator is falling behind its schedule: the latencies above include its lateness' : '';
  console.log(`schedule lag (how late each request left against its intended time): p50 ${ms(lag.p50)} ms, p99 ${ms(lag.p99)} ms, max ${ms(lag.max)} ms${saturated}`);
}

/** CPU time (ms) of each process of the stack, Postgres, Redis and the whole machine, and the load average. */
function cpuSnapshot(system: RunningSystem): Map<string, number> {
  const cpu = descendantsCpuMs(system.process.pid);
  cpu.set('postgres', namedProcessesCpuMs('postgres'));
  cpu.set('redis', namedProcessesCpuMs('redis-server'));
  cpu.set('load generator', processCpuMs(process.pid));
  cpu.set('machine', machineCpuMs());
  return cpu;
}

/**
 * CPU per served request of each process during the run: steadier than latency on a shared machine. Postgres and Redis
 * are every such process on the machine (other work using them counts too).
 */
function printCpu(before: Map<string, number>, after: Map<string, number>, requests: number): void {
  console.log(`\nCPU during the run (${requests} requests answered; load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}):`);
  console.log('| process | CPU s | µs per request |');
  console.log('|---|---:|---:|');
  for (const [name, ms] of after) {
    const used = ms - (before.get(name) ?? 0);
    console.log(`| ${name} | ${(used / 1000).toFixed(1)} | ${requests ? Math.round((used * 1000) / requests) : '-'} |`);
  }
}

// A port in use or a system that does not start is one line, not a stack trace.
main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
