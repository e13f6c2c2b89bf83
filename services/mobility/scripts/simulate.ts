/**
 * `pnpm simulate`: drivers around a city centre working through the public APIs only.
 * Registers N drivers (admin API), puts them online and moves them (driver API), requests rides as a partner (public API),
 * and has the drivers accept offers (a few decline) and drive each ride to completion. Couriers do the same with
 * deliveries, completing each at the drop-off with the PIN the partner was given. A small event runs alongside: the
 * partner creates an event pass program at a venue near the centre (budget for 3 capped rides), issues passes to its
 * attendees, and requests their rides to the venue with the passes; when the budget runs out the ride is requested
 * without a pass. Bounded run time, loopback only.
 *
 *   pnpm simulate [--drivers 20] [--rides 10] [--couriers 3] [--deliveries 2] [--attendees 4] [--seconds 90] [--centre 6.5244,3.3792] [--url http://127.0.0.1:3002]
 *
 * Targets MOBILITY_URL (default http://127.0.0.1:3002) when a service answers there; otherwise starts the API and
 * dispatch worker in this process (own Redis prefix; the database from DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { MOBILITY_SCOPES } from '@platform/api-keys';
import { DEFAULT_JWT_ISSUER, signAdminToken, signDriverToken } from '@platform/service-kit/admin-auth';
import { DEV_JWT_SECRET } from '@platform/service-kit/config';
import { assertLoopback, startLocalMobility } from './local-service';
import { clearPrefix } from '@platform/bench-kit';

interface Point {
  lat: number;
  lng: number;
}

const { values: args } = parseArgs({
  options: {
    drivers: { type: 'string', default: '20' },
    rides: { type: 'string', default: '10' },
    couriers: { type: 'string', default: '3' },
    deliveries: { type: 'string', default: '2' },
    attendees: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '90' },
    centre: { type: 'string', default: '6.5244,3.3792' },
    url: { type: 'string', default: process.env.MOBILITY_URL ?? 'http://127.0.0.1:3002' },
  },
});
const DRIVERS = Math.min(500, Number(args.drivers));
const RIDES = Math.min(500, Number(args.rides));
const COURIERS = Math.min(100, Number(args.couriers));
const DELIVERIES = Math.min(100, Number(args.deliveries));
const ATTENDEES = Math.min(100, Number(args.attendees));
/** The event's per-ride cap (minor units); its budget covers three capped rides. */
const EVENT_CAP = 100_000;
const TERMINAL = ['completed', 'cancelled', 'no_drivers_available', 'delivered', 'failed'];
const SECONDS = Math.min(600, Number(args.seconds));
const [clat, clng] = args.centre.split(',').map(Number) as [number, number];
const CENTRE: Point = { lat: clat, lng: clng };
const TICK_MS = 500;
const SPEED_MPS = 250; // fast-forward: a simulated car covers 250 m per tick

const secret = process.env.JWT_SECRET ?? DEV_JWT_SECRET;
const tokenOptions = { issuer: process.env.JWT_ISSUER ?? DEFAULT_JWT_ISSUER, ttlSeconds: 12 * 60 * 60 };
const run = randomBytes(3).toString('hex');

function around(p: Point, meters: number): Point {
  const angle = Math.random() * 2 * Math.PI;
  const r = Math.sqrt(Math.random()) * meters;
  return { lat: p.lat + (r * Math.cos(angle)) / 111_320, lng: p.lng + (r * Math.sin(angle)) / (111_320 * Math.cos((p.lat * Math.PI) / 180)) };
}

function metersBetween(a: Point, b: Point): number {
  const dy = (b.lat - a.lat) * 111_320;
  const dx = (b.lng - a.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

function stepTowards(from: Point, to: Point, meters: number): Point {
  const d = metersBetween(from, to);
  if (d <= meters) return to;
  const f = meters / d;
  return { lat: from.lat + (to.lat - from.lat) * f, lng: from.lng + (to.lng - from.lng) * f };
}

async function call(base: string, method: string, path: string, token: string, body?: unknown, header = 'Authorization') {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { [header]: header === 'Authorization' ? `Bearer ${token}` : token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = res.status === 204 ? null : await res.json();
  return { status: res.status, body: json as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

interface SimDriver {
  id: string;
  token: string;
  at: Point;
  job?: { kind: 'ride' | 'delivery'; id: string; pickup: Point; dropoff: Point; phase: 'to_pickup' | 'to_dropoff' };
}

/** The PIN of each delivery, as the partner got it at creation and passes on to the recipient. */
const pins = new Map<string, string>();

async function main() {
  assertLoopback(args.url);
  let base = args.url;
  let local: Awaited<ReturnType<typeof startLocalMobility>> | undefined;
  const prefix = `sim_${run}`;
  if (!(await reachable(base))) {
    local = await startLocalMobility({ REDIS_PREFIX: prefix, DISPATCH_OFFER_TTL_S: '5', DISPATCH_TIMEOUT_S: '60' });
    base = local.url;
    console.log(`no service at ${args.url}: started one in-process at ${base}`);
  }
  const org = `org_sim_${run}`;
  const owner = signAdminToken({ sub: `sim_owner_${run}`, org, org_name: 'Simulator', role: 'owner' }, secret, tokenOptions);
  const operator = signAdminToken({ sub: `sim_operator_${run}`, org, role: 'operator' }, secret, tokenOptions);
  const key = await call(base, 'POST', '/admin/v1/api-keys', owner, { name: `simulator ${run}`, scopes: MOBILITY_SCOPES });
  if (key.status !== 201) throw new Error(`could not create a key: ${key.status} ${JSON.stringify(key.body)}`);
  const partnerKey = key.body.token as string;

  const drivers: SimDriver[] = [];
  for (let i = 0; i < DRIVERS + COURIERS; i++) {
    const courier = i >= DRIVERS;
    const created = await call(base, 'POST', '/admin/v1/drivers', operator, {
      name: courier ? `Sim Courier ${i - DRIVERS}` : `Sim Driver ${i}`,
      phone: `+23480${String(10000000 + i)}`,
      kind: courier ? 'courier' : 'driver',
      tier: courier ? 'moto' : 'economy',
      vehicle: courier ? { make: 'Honda', model: 'CG125', plate: `SIMC-${run}-${i}`, color: 'red' } : { make: 'Toyota', model: 'Corolla', plate: `SIM-${run}-${i}`, color: 'white' },
    });
    const driver: SimDriver = { id: created.body.id, token: signDriverToken(created.body.id, secret, tokenOptions), at: around(CENTRE, 3000) };
    await call(base, 'POST', '/driver/v1/location', driver.token, { ...driver.at, heading: 0, speed_kph: 0 });
    await call(base, 'POST', '/driver/v1/availability', driver.token, { available: true });
    drivers.push(driver);
  }
  console.log(`${DRIVERS} drivers and ${COURIERS} couriers online around ${CENTRE.lat},${CENTRE.lng}`);

  const rideIds: string[] = [];
  const deliveryIds: string[] = [];
  const event = await startEvent(base, partnerKey);
  let plainRides = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const counts = { accepted: 0, declined: 0, completed: 0 };
  let tick = 0;
  while (Date.now() < deadline) {
    if (plainRides < RIDES && tick % 2 === 0) {
      plainRides++;
      const pickup = around(CENTRE, 2500);
      const dropoff = around(pickup, 4000);
      const estimate = await call(base, 'POST', '/api/v1/estimates', partnerKey, { pickup, dropoff }, 'X-API-KEY');
      const ride = await call(base, 'POST', '/api/v1/rides', partnerKey, { pickup, dropoff, tier: 'economy', passenger: { name: `Passenger ${rideIds.length}`, phone: '+2348000000000' }, estimate_id: estimate.body.id }, 'X-API-KEY');
      if (ride.status === 201) rideIds.push(ride.body.id);
    }
    const code = event.codes.shift();
    if (code) {
      const rideId = await attendeeRide(base, partnerKey, event.venue, code);
      if (rideId) rideIds.push(rideId);
    }
    if (deliveryIds.length < DELIVERIES && tick % 2 === 1) {
      const pickup = around(CENTRE, 2500);
      const delivery = await call(base, 'POST', '/api/v1/deliveries', partnerKey, {
        pickup,
        dropoff: around(pickup, 4000),
        sender: { name: 'Sim Shop', phone: '+2348000000001' },
        recipient: { name: `Recipient ${deliveryIds.length}`, phone: '+2348000000002' },
        weight_tier: 'small',
      }, 'X-API-KEY');
      if (delivery.status === 201) {
        deliveryIds.push(delivery.body.id);
        pins.set(delivery.body.id, delivery.body.security_pin);
      }
    }
    await Promise.all(drivers.map((d) => driveOneTick(base, d, counts)));
    const statuses = await statusesOf(base, partnerKey, rideIds, deliveryIds);
    if (tick % 4 === 0) console.log(`t=${Math.round((tick * TICK_MS) / 1000)}s rides: ${summary(statuses.rides)}; deliveries: ${summary(statuses.deliveries)}`);
    const all = [...statuses.rides, ...statuses.deliveries];
    if (plainRides >= RIDES && event.codes.length === 0 && deliveryIds.length >= DELIVERIES && all.every((s) => TERMINAL.includes(s))) break;
    tick++;
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const final = await statusesOf(base, partnerKey, rideIds, deliveryIds);
  const program = (await call(base, 'GET', `/api/v1/event-pass-programs/${event.programId}`, partnerKey)).body;
  console.log(`event "${program.name}": ${JSON.stringify(program.usage)} (${program.currency})`);
  console.log(`done: ${rideIds.length} rides — ${summary(final.rides)}; ${deliveryIds.length} deliveries — ${summary(final.deliveries)}; offers accepted ${counts.accepted}, declined ${counts.declined}`);
  for (const d of drivers) await call(base, 'POST', '/driver/v1/availability', d.token, { available: false });
  if (local) {
    await local.close();
    await clearPrefix(prefix);
  }
}

/** The event: a program at a venue 1 km north of the centre, open for the run, and one pass per attendee. */
async function startEvent(base: string, partnerKey: string) {
  const venue = { lat: CENTRE.lat + 1000 / 111_320, lng: CENTRE.lng };
  const program = await call(base, 'POST', '/api/v1/event-pass-programs', partnerKey, {
    name: `Simulated event ${run}`,
    venue: { ...venue, radius_m: 500, address: 'Simulated Arena' },
    valid_from: new Date(Date.now() - 60_000).toISOString(),
    valid_until: new Date(Date.now() + (SECONDS + 600) * 1000).toISOString(),
    applies_to: 'both',
    tiers: ['economy', 'comfort'],
    max_fare_per_ride: EVENT_CAP,
    budget: EVENT_CAP * 3,
    rides_per_pass: 2,
  });
  if (program.status !== 201) throw new Error(`could not create the event: ${program.status} ${JSON.stringify(program.body)}`);
  const passes = ATTENDEES ? await call(base, 'POST', `/api/v1/event-pass-programs/${program.body.id}/passes`, partnerKey, { attendees: Array.from({ length: ATTENDEES }, (_, i) => ({ reference: `TICKET-${i + 1}`, name: `Attendee ${i + 1}` })) }) : { body: { data: [] } };
  console.log(`event ${program.body.id}: ${ATTENDEES} passes issued, budget ${EVENT_CAP * 3} (cap ${EVENT_CAP} a ride)`);
  return { programId: program.body.id as string, venue, codes: (passes.body.data as { code: string }[]).map((p) => p.code) };
}

/** An attendee's ride to the venue with their pass; a refused pass (budget gone) is printed and the ride requested without it. */
async function attendeeRide(base: string, partnerKey: string, venue: Point, code: string): Promise<string | undefined> {
  const body = { pickup: around(CENTRE, 2500), dropoff: around(venue, 200), tier: 'economy', passenger: { name: 'Attendee', phone: '+2348000000003' } };
  const withPass = await call(base, 'POST', '/api/v1/rides', partnerKey, { ...body, event_pass: code });
  if (withPass.status === 201) {
    console.log(`attendee ride ${withPass.body.id}: fare ${withPass.body.fare.amount}, pass covers ${withPass.body.fare.covered_by_pass}, rider pays ${withPass.body.fare.rider_pays}`);
    return withPass.body.id;
  }
  console.log(`pass ${code} refused: ${withPass.status} ${withPass.body.code}; requesting the ride without it`);
  const plain = await call(base, 'POST', '/api/v1/rides', partnerKey, body);
  return plain.status === 201 ? plain.body.id : undefined;
}

async function statusesOf(base: string, partnerKey: string, rideIds: string[], deliveryIds: string[]) {
  const statusOf = async (path: string) => (await call(base, 'GET', path, partnerKey, undefined, 'X-API-KEY')).body.status as string;
  return {
    rides: await Promise.all(rideIds.map((id) => statusOf(`/api/v1/rides/${id}`))),
    deliveries: await Promise.all(deliveryIds.map((id) => statusOf(`/api/v1/deliveries/${id}`))),
  };
}

async function driveOneTick(base: string, d: SimDriver, counts: { accepted: number; declined: number; completed: number }) {
  if (!d.job) {
    const offers = await call(base, 'GET', '/driver/v1/offers', d.token);
    const offer = offers.body.data?.[0];
    if (!offer) return;
    if (Math.random() < 0.15) {
      await call(base, 'POST', `/driver/v1/offers/${offer.id}/decline`, d.token);
      counts.declined++;
      return;
    }
    const accepted = await call(base, 'POST', `/driver/v1/offers/${offer.id}/accept`, d.token);
    if (accepted.status !== 200) return;
    counts.accepted++;
    d.job = { kind: offer.kind, id: accepted.body.id, pickup: accepted.body.pickup, dropoff: accepted.body.dropoff, phase: 'to_pickup' };
    return;
  }
  const job = d.job;
  const target = job.phase === 'to_pickup' ? job.pickup : job.dropoff;
  const next = stepTowards(d.at, target, SPEED_MPS);
  const heading = (Math.atan2(next.lng - d.at.lng, next.lat - d.at.lat) * 180) / Math.PI;
  d.at = next;
  await call(base, 'POST', '/driver/v1/location', d.token, { ...next, heading: (heading + 360) % 360, speed_kph: 40 });
  if (metersBetween(next, target) > 1) return;
  if (job.kind === 'delivery') {
    if (job.phase === 'to_pickup') {
      await call(base, 'POST', `/driver/v1/deliveries/${job.id}/pickup`, d.token);
      job.phase = 'to_dropoff';
      return;
    }
    await call(base, 'POST', `/driver/v1/deliveries/${job.id}/deliver`, d.token, { pin: pins.get(job.id), received_by: 'Recipient at the door' });
  } else if (job.phase === 'to_pickup') {
    await call(base, 'POST', `/driver/v1/rides/${job.id}/arrived`, d.token);
    await call(base, 'POST', `/driver/v1/rides/${job.id}/start`, d.token);
    job.phase = 'to_dropoff';
    return;
  } else {
    await call(base, 'POST', `/driver/v1/rides/${job.id}/complete`, d.token);
  }
  counts.completed++;
  d.job = undefined;
}

function summary(statuses: string[]): string {
  const byStatus = new Map<string, number>();
  for (const s of statuses) byStatus.set(s, (byStatus.get(s) ?? 0) + 1);
  return [...byStatus].map(([s, n]) => `${s} ${n}`).join(', ') || 'none yet';
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
