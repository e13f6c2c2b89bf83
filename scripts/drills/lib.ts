/** Shared helpers of the drills: API calls as a partner, an operator and drivers, a webhook receiver, a private Redis. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer as createNetServer } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import pg from 'pg';
import { MOBILITY_SCOPES } from '@platform/api-keys';
import type { components } from '@platform/client/schema';
import { DEFAULT_JWT_ISSUER, signAdminToken, signDriverToken } from '@platform/service-kit/admin-auth';
import { checkoutJwtSecret } from '../dev-secrets';
import { workspaceRoot } from '../running-state';
import type { RunningSystem } from '../system';

export interface Point {
  lat: number;
  lng: number;
}

/** The system's JWT_SECRET: the environment's, else this checkout's development one (what `pnpm start` uses). */
export function jwtSecret(): string {
  return checkoutJwtSecret(workspaceRoot(__dirname));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function suffix(): string {
  return randomBytes(4).toString('hex');
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One JSON call; never throws on a status (a network error is status 0). */
export async function callJson(url: string, method: string, auth?: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs = 60000): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(auth ? { authorization: auth } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { non_json: text.slice(0, 200) };
    }
    return { status: res.status, body: parsed };
  } catch (error) {
    return { status: 0, body: { error: (error as Error).message } };
  }
}

/** Like callJson, but a non-2xx answer is an error (setup steps). */
export async function must(url: string, method: string, auth?: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await callJson(url, method, auth, body);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export function adminAuth(org: string, role: 'owner' | 'operator' | 'platform_operator' = 'owner'): string {
  return `Bearer ${signAdminToken({ sub: `${org}_${role}`, org, org_name: `Drill ${org}`, role }, jwtSecret(), { issuer: process.env.JWT_ISSUER ?? DEFAULT_JWT_ISSUER })}`;
}

/** A new partner organization with a mobility key holding every scope. */
export async function mobilityPartnerKey(system: RunningSystem, label: string): Promise<string> {
  const org = `${label}_${suffix()}`;
  const key = await must(`${system.mobility}/admin/v1/api-keys`, 'POST', adminAuth(org), { name: `${label} key`, scopes: MOBILITY_SCOPES });
  return `Bearer ${key.token as string}`;
}

/** The point `north` and `east` metres away from `from`. */
export function offset(from: Point, north: number, east: number): Point {
  const lat = from.lat + north / 111_320;
  const lng = from.lng + east / (111_320 * Math.cos((from.lat * Math.PI) / 180));
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 };
}

/** A ride request as the partner API describes it (the generated types check it). */
export function rideBody(pickup: Point): components['schemas']['NewRide'] {
  return {
    pickup: { ...pickup, address: '1 Drill Street' },
    dropoff: { ...offset(pickup, 3000, 2000), address: '99 Drill Road' },
    tier: 'economy',
    passenger: { name: 'Ada Obi', phone: '+234 802 000 0000' },
  };
}

export interface Driver {
  id: string;
  auth: string;
}

/** Registers `count` economy drivers of the platform's fleet (they serve every partner) and puts them online around `at` (within 300 m). */
export async function onlineDrivers(system: RunningSystem, count: number, at: Point): Promise<Driver[]> {
  const operator = adminAuth(`drill_fleet_${suffix()}`, 'platform_operator');
  const drivers: Driver[] = [];
  for (let i = 0; i < count; i++) {
    const s = suffix();
    const driver = await must(`${system.mobility}/admin/v1/drivers`, 'POST', operator, {
      name: `Drill driver ${s}`,
      phone: '+234 801 234 5678',
      kind: 'driver',
      tier: 'economy',
      vehicle: { make: 'Toyota', model: 'Corolla', plate: `DRL-${s.slice(0, 5)}`, color: 'silver' },
    });
    const id = driver.id as string;
    const auth = `Bearer ${signDriverToken(id, jwtSecret(), { issuer: process.env.JWT_ISSUER ?? DEFAULT_JWT_ISSUER })}`;
    await must(`${system.gateway}/driver/v1/location`, 'POST', auth, { ...offset(at, (i % 5) * 50, Math.floor(i / 5) * 50), heading: 90, speed_kph: 0 });
    await must(`${system.gateway}/driver/v1/availability`, 'POST', auth, { available: true });
    drivers.push({ id, auth });
  }
  return drivers;
}

/** A random spot far from everything else in the shared Redis GEO indexes (each system has its own prefix anyway). */
export function randomCentre(): Point {
  return { lat: Math.round((Math.random() * 100 - 50) * 1e5) / 1e5, lng: Math.round((Math.random() * 300 - 150) * 1e5) / 1e5 };
}

/**
 * A driver's loop: poll offers, accept, and move the ride through arrived, start, complete. Returns when `stop()`
 * says so and the driver has no ride in hand. Answers other than 2xx (e.g. while Redis is down) are counted and retried.
 */
export async function driverLoop(system: RunningSystem, driver: Driver, stop: () => boolean, stats: { completed: number; errors: number }): Promise<void> {
  const base = `${system.gateway}/driver/v1`;
  while (!stop()) {
    const offers = await callJson(`${base}/offers`, 'GET', driver.auth);
    const offer = ((offers.body.data as Array<{ id: string; ride_id: string }> | undefined) ?? [])[0];
    if (offers.status !== 200 || !offer) {
      if (offers.status !== 200) stats.errors++;
      await sleep(200);
      continue;
    }
    const accepted = await callJson(`${base}/offers/${offer.id}/accept`, 'POST', driver.auth);
    if (accepted.status !== 200) {
      stats.errors++;
      continue;
    }
    for (const step of ['arrived', 'start', 'complete']) {
      for (let tries = 0; ; tries++) {
        const moved = await callJson(`${base}/rides/${offer.ride_id}/${step}`, 'POST', driver.auth);
        if (moved.status === 200 || moved.status === 409 || tries > 50) break;
        stats.errors++;
        await sleep(200);
      }
    }
    stats.completed++;
  }
}

/** Events received by a loopback webhook receiver, by event id (`webhook-id`). */
export interface Receiver {
  url: string;
  port: number;
  /** Event id → requests received. */
  requests: Map<string, number>;
  /** Event ids answered 2xx (the answer was written out). */
  acknowledged: Set<string>;
  /** Requests for an event id that had already been answered 2xx (event id and `X-Service-Delivery-Attempt`). */
  duplicatesAfter2xx: Array<{ id: string; attempt: number }>;
  /** When each event id was first answered 2xx (ms since the epoch). */
  acknowledgedAt: Map<string, number>;
  /** Refuse connections (the port is closed) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(delayMs = 0): Promise<Receiver> {
  const requests = new Map<string, number>();
  const acknowledged = new Set<string>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests,
    acknowledged,
    duplicatesAfter2xx: [],
    acknowledgedAt: new Map(),
    down: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    up: async () => {
      server = listen();
      await new Promise<void>((resolve) => server.listen(receiver.port, '127.0.0.1', resolve));
    },
    close: async () => receiver.down(),
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      requests.set(id, (requests.get(id) ?? 0) + 1);
      if (acknowledged.has(id)) receiver.duplicatesAfter2xx.push({ id, attempt: Number(req.headers['x-service-delivery-attempt'] ?? 0) });
      setTimeout(() => {
        res.on('finish', () => {
          acknowledged.add(id);
          if (!receiver.acknowledgedAt.has(id)) receiver.acknowledgedAt.set(id, Date.now());
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }, delayMs);
    });
  };
  const listen = (): Server => createServer(handler);
  let server = listen();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.port = typeof address === 'object' && address ? address.port : 0;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/** Registers the receiver as the partner's webhook endpoint (all event types). */
export async function registerEndpoint(system: RunningSystem, partner: string, url: string): Promise<string> {
  const endpoint = await must(`${system.gateway}/api/v1/webhooks`, 'POST', partner, { url, description: 'drill receiver' });
  return endpoint.id as string;
}

/** Runs one query against the system's own database (the mobility schema). */
export async function query<T extends Record<string, unknown>>(system: RunningSystem, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: system.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Every outbox event of the system's database (the source of truth for what must arrive). */
export async function outboxEventIds(system: RunningSystem): Promise<string[]> {
  return (await query<{ id: string }>(system, 'select id from mobility.outbox_events order by created_at')).map((r) => r.id);
}

/** Waits until `done()` or `timeoutMs`, printing progress every 5 s; returns whether it finished. */
export async function waitFor(done: () => Promise<boolean> | boolean, timeoutMs: number, progress?: () => string): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let lastPrint = Date.now();
  while (Date.now() < deadline) {
    if (await done()) return true;
    if (progress && Date.now() - lastPrint > 5000) {
      console.log(`    … ${progress()}`);
      lastPrint = Date.now();
    }
    await sleep(250);
  }
  return done();
}

/**
 * Compares what the outbox holds with what the receiver got. Every request for an event after it was answered 2xx is a
 * duplicate, except — only when a worker was SIGKILLed at `killedAt` — a `crashRedelivery`: its first 2xx was written
 * in the 2 s before the kill and the database holds no 2xx attempt of it before the repeat (the killed worker had the
 * request in flight and never recorded the answer). At-least-once delivery allows exactly these; receivers drop them
 * by `webhook-id`. A repeat after a recorded 2xx, or of an answer long before the kill, is a duplicate.
 */
export async function compare(
  system: RunningSystem,
  eventIds: string[],
  receiver: Receiver,
  killedAt?: number,
): Promise<{ lost: number; duplicates: number; crashRedeliveries: number; arrived: number; extraRequests: number }> {
  const lost = eventIds.filter((id) => !receiver.acknowledged.has(id)).length;
  const requests = [...receiver.requests.values()].reduce((a, b) => a + b, 0);
  const dupIds = [...new Set(receiver.duplicatesAfter2xx.map((d) => d.id))];
  const recorded = dupIds.length
    ? await query<{ event_id: string; attempt: number }>(
        system,
        `select d.event_id, a.attempt from mobility.webhook_deliveries d join mobility.webhook_attempts a on a.delivery_id = d.id
          where d.event_id = any($1) and a.status_code between 200 and 299`,
        [dupIds],
      )
    : [];
  const crashRedeliveries = receiver.duplicatesAfter2xx.filter((d) => {
    const firstAck = receiver.acknowledgedAt.get(d.id) ?? 0;
    const inFlightAtKill = killedAt !== undefined && firstAck >= killedAt - 2000 && firstAck <= killedAt + 100;
    return inFlightAtKill && !recorded.some((r) => r.event_id === d.id && r.attempt < d.attempt);
  }).length;
  return {
    lost,
    duplicates: receiver.duplicatesAfter2xx.length - crashRedeliveries,
    crashRedeliveries,
    arrived: eventIds.length - lost,
    extraRequests: requests - receiver.acknowledged.size,
  };
}

export function summarize(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}× ${status === 0 ? 'no answer' : status}`)
    .join(', ');
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A private, memory-only redis-server on `port` (never the machine's shared one). */
export async function startPrivateRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: 'ignore' });
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    try {
      await new Promise<void>((resolve, reject) => {
        const socket = createConnection(port, '127.0.0.1', () => {
          socket.end();
          resolve();
        });
        socket.once('error', reject);
      });
      return child;
    } catch {
      await sleep(100);
    }
  }
  child.kill('SIGKILL');
  throw new Error(`private redis-server on ${port} did not start`);
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * Rides created by a partner at a steady rate and driven to completion by online drivers through the driver API:
 * each completed ride is four outbox events (accepted, arrived, in_progress, completed).
 */
export function rideTraffic(system: RunningSystem, partner: string, centre: Point, drivers: Driver[], ridesPerSecond: number) {
  const createAnswers: number[] = [];
  const rideIds: string[] = [];
  const driverStats = { completed: 0, errors: 0 };
  let creating = true;
  let driving = true;
  const loops = drivers.map((d) => driverLoop(system, d, () => !driving, driverStats));
  const creator = (async () => {
    let n = 0;
    const started = Date.now();
    while (creating) {
      const due = started + (n * 1000) / ridesPerSecond;
      if (Date.now() < due) {
        await sleep(due - Date.now());
        continue;
      }
      n++;
      void callJson(`${system.gateway}/api/v1/rides`, 'POST', partner, rideBody(offset(centre, 100, 100)), { 'idempotency-key': `drill-${n}-${suffix()}` }, 15000).then((a) => {
        createAnswers.push(a.status);
        if (a.status === 201) rideIds.push(a.body.id as string);
      });
    }
  })();
  return {
    createAnswers,
    rideIds,
    driverStats,
    /** Stops creating rides, lets the drivers finish (up to `timeoutMs`), cancels what is still open, stops the drivers. */
    async finish(timeoutMs: number): Promise<{ cancelled: number }> {
      creating = false;
      await creator;
      await sleep(500);
      const open = async () =>
        Number(
          (await query<{ n: string }>(system, "select count(*) as n from mobility.rides where status in ('pending', 'accepted', 'arrived', 'in_progress')"))[0]!.n,
        );
      await waitFor(async () => (await open()) === 0, timeoutMs, () => `rides still open`);
      driving = false;
      await Promise.all(loops);
      const left = await query<{ id: string }>(system, "select id from mobility.rides where status in ('pending', 'accepted', 'arrived', 'in_progress')");
      let cancelled = 0;
      for (const { id } of left) if ((await callJson(`${system.gateway}/api/v1/rides/${id}/cancel`, 'POST', partner, {})).status === 200) cancelled++;
      return { cancelled };
    },
  };
}
