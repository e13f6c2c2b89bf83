import { verifyServiceSignature } from '@platform/webhook-signature';
import { sendJson, startFakeServer, waitFor } from '@platform/test-kit';
import { createApp } from '../src/app';
import { buildServices, type MobilityServices } from '../src/services';
import type { TestContext } from './helpers/context';
import { createIsolatedContext, silentLogger, type IsolatedContext } from './helpers/webhooks';
import { createPartnerKey } from './factories/auth';
import { assignedDelivery, onlineCourier } from './factories/deliveries';
import { offset, onlineDriver, randomCentre, type Point } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let isolated: IsolatedContext;
let ctx: TestContext;
let services: MobilityServices;
let receiver: Awaited<ReturnType<typeof startFakeServer>>;

beforeAll(async () => {
  // The 10 s rule is stretched so that only distance decides here, however slow the machine (no timing in tests).
  isolated = await createIsolatedContext({ LOCATION_EVENT_INTERVAL_S: '3600' });
  const { db, redis, config } = isolated;
  services = buildServices({ db, redis, config, logger: silentLogger });
  ctx = { app: createApp({ db, redis, config, logger: silentLogger }, services), db, redis, config, services, close: async () => undefined } as TestContext;
  receiver = await startFakeServer((_req, res) => sendJson(res, 200, { ok: true }));
  isolated.startDelivery();
});
afterAll(async () => {
  await receiver.close();
  await services.telemetry.close();
  await services.timers.close();
  await isolated.close();
});

const received = (path: string) => receiver.requests.filter((r) => r.url === path).map((r) => ({ ...r, event: JSON.parse(r.body.toString('utf8')) }));

/** Waits until every outbox event of the job has gone to the delivery queue, so nothing more is on its way. */
async function allRelayed(jobId: string): Promise<void> {
  await waitFor(async () => (await isolated.db('outbox_events').where({ object_id: jobId }).whereNull('dispatched_at').count<{ count: string }[]>('* as count'))[0]!.count === '0', 'every event relayed');
}

async function partnerWithEndpoints(path: string) {
  const { token } = await createPartnerKey(ctx);
  const partner = partnerApi(ctx, token);
  const optIn = (await partner.post('/api/v1/webhooks', { url: `${receiver.url}${path}/opt-in`, events: ['ride.location_updated', 'delivery.courier_location_updated', 'ride.completed'] }).expect(201)).body;
  const byDefault = (await partner.post('/api/v1/webhooks', { url: `${receiver.url}${path}/default` }).expect(201)).body;
  return { partner, optIn, byDefault };
}

describe('location webhooks (opt-in, throttled per job)', () => {
  it('are not in the default subscription, and may be listed explicitly', async () => {
    const { optIn, byDefault } = await partnerWithEndpoints('/registration');
    expect(byDefault.events).not.toContain('ride.location_updated');
    expect(byDefault.events).not.toContain('delivery.courier_location_updated');
    expect(byDefault.events).toContain('ride.accepted');
    expect(optIn.events).toEqual(['ride.location_updated', 'delivery.courier_location_updated', 'ride.completed']);
    const { token } = await createPartnerKey(ctx);
    const refused = await partnerApi(ctx, token).post('/api/v1/webhooks', { url: `${receiver.url}/x`, events: ['ride.location_changed'] }).expect(422);
    expect(refused.body.code).toBe('validation_failed');
  });

  it('sends the first position at once, skips moves under 200 m, sends again after 200 m, only to the endpoint that listed them', async () => {
    const centre = randomCentre();
    const { partner, optIn } = await partnerWithEndpoints('/ride');
    const driver = await onlineDriver(ctx, offset(centre, 300, 200));
    const ride = (await partner.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);

    const start: Point = offset(centre, 250, 150);
    const report = (at: Point) => driver.app.post('/location', { ...at, heading: 45, speed_kph: 30 }).expect(200);
    const first = (await report(start)).body; // first position of the job: sent
    await report(offset(start, 60, 0)); // 60 m from the last sent point: not sent
    await report(offset(start, 120, 0)); // 120 m: not sent
    const far = offset(start, 260, 0);
    const second = (await report(far)).body; // 260 m from the last sent point: sent

    await waitFor(() => received('/ride/opt-in').filter((r) => r.event.type === 'ride.location_updated').length >= 2, 'two location events');
    await allRelayed(ride.id);
    const locations = received('/ride/opt-in').filter((r) => r.event.type === 'ride.location_updated');
    expect(locations).toHaveLength(2);
    const [a, b] = locations.map((r) => r.event).sort((x, y) => x.data.sequence - y.data.sequence);
    expect(a.data).toEqual({ id: ride.id, object: 'ride', status: 'accepted', sequence: 2, position: { lat: start.lat, lng: start.lng, heading: 45, speed_kph: 30 }, recorded_at: first.updated_at });
    expect(b.data).toEqual({ id: ride.id, object: 'ride', status: 'accepted', sequence: 3, position: { lat: far.lat, lng: far.lng, heading: 45, speed_kph: 30 }, recorded_at: second.updated_at });
    for (const delivery of locations) {
      expect(delivery.headers['x-service-event-type']).toBe('ride.location_updated');
      expect(verifyServiceSignature(delivery.body, delivery.headers['x-service-signature'] as string, optIn.secret)).toBe(true);
    }
    // The endpoint registered with the default set got the status events only.
    expect(received('/ride/default').map((r) => r.event.type)).toEqual(['ride.accepted']);
    // The ride's own sequence counts the location events too, so a later status change is newer than any position.
    const current = await partner.get(`/api/v1/rides/${ride.id}`).expect(200);
    expect(current.body.sequence).toBe(3);
  });

  it('sends delivery.courier_location_updated for a courier on a delivery', async () => {
    const centre = randomCentre();
    const { partner } = await partnerWithEndpoints('/delivery');
    const courier = await onlineCourier(ctx, offset(centre, 300, 200));
    const delivery = await assignedDelivery(partner, courier, centre);
    const at = offset(centre, 200, 100);
    const recorded = (await courier.app.post('/location', { ...at }).expect(200)).body;
    await waitFor(() => received('/delivery/opt-in').length >= 1, 'a courier location event');
    await allRelayed(delivery.id);
    const [event] = received('/delivery/opt-in').map((r) => r.event);
    expect(event.type).toBe('delivery.courier_location_updated');
    expect(event.data).toEqual({ id: delivery.id, object: 'delivery', status: 'courier_assigned', sequence: 2, position: { lat: at.lat, lng: at.lng, heading: null, speed_kph: null }, recorded_at: recorded.updated_at });
    expect(received('/delivery/default').map((r) => r.event.type)).toEqual(['delivery.courier_assigned']);
  });

  it('writes nothing for a driver without a job, or for a partner without an opted-in endpoint', async () => {
    const centre = randomCentre();
    const { token } = await createPartnerKey(ctx);
    const partner = partnerApi(ctx, token);
    await partner.post('/api/v1/webhooks', { url: `${receiver.url}/quiet/default` }).expect(201);
    const driver = await onlineDriver(ctx, offset(centre, 300, 200));
    const before = await isolated.db('outbox_events').count<{ count: string }[]>('* as count');
    await driver.app.post('/location', offset(centre, 310, 200)).expect(200); // no job yet
    const ride = (await partner.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    await driver.app.post('/location', offset(centre, 290, 200)).expect(200); // a job, but nobody listed the event
    const events = await isolated.db('outbox_events').where({ object_id: ride.id }).orderBy('sequence').select('type', 'sequence');
    expect(events).toEqual([{ type: 'ride.accepted', sequence: 1 }]);
    expect((await isolated.db('outbox_events').count<{ count: string }[]>('* as count'))[0]!.count).toBe(String(Number(before[0]!.count) + 1));
    expect((await partner.get(`/api/v1/rides/${ride.id}`).expect(200)).body.sequence).toBe(1);
  });

  it('refuses a bad position with 422 and records nothing', async () => {
    const centre = randomCentre();
    const { partner } = await partnerWithEndpoints('/bad');
    const driver = await onlineDriver(ctx, offset(centre, 300, 200));
    const ride = (await partner.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    const before = (await partner.get(`/api/v1/rides/${ride.id}`).expect(200)).body;
    for (const bad of [{ lat: 91, lng: 0 }, { lat: 10, lng: 10, speed_kph: -1 }, { lat: '10', lng: 10 }]) {
      const res = await driver.app.post('/location', bad).expect(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await partner.get(`/api/v1/rides/${ride.id}`).expect(200)).body).toEqual(before);
    expect(await isolated.db('outbox_events').where({ object_id: ride.id }).pluck('type')).toEqual(['ride.accepted']);
  });
});
