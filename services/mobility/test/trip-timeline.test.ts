import request from 'supertest';
import { waitFor } from '@platform/test-kit';
import type { TestContext } from './helpers/context';
import { startDeliveringApp, stopDeliveringApp, type DeliveringApp } from './helpers/delivering-app';
import { adminToken, createPartnerKey, newAdmin, type AdminIdentity } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let ctx: TestContext;
let receiver: DeliveringApp['receiver'];
let started: DeliveringApp | undefined;
beforeAll(async () => {
  started = await startDeliveringApp();
  ({ ctx, receiver } = started);
});
afterAll(() => stopDeliveringApp(started));

/** A test-mode key and a test-mode webhook endpoint of a new partner. */
async function testPartner() {
  const key = await createPartnerKey(ctx, { mode: 'test' });
  const api = partnerApi(ctx, key.token);
  const endpoint = (await api.post('/api/v1/webhooks', { url: `${receiver.url}/trips/${key.keyId}` }).expect(201)).body as Json;
  return { api, owner: key.owner, endpoint };
}

const timelineOf = (owner: AdminIdentity, path: string) => request(ctx.app).get(path).set('Authorization', `Bearer ${adminToken(ctx, owner)}`);
const partsSum = (price: Json) => price.base + price.distance + price.time + price.surge + price.adjustment;

describe('GET /admin/v1/deliveries/{id}/timeline', () => {
  it("says why a delivery nobody accepted failed and what next, with each change's event and the message that carried it", async () => {
    const { api, owner, endpoint } = await testPartner();
    const delivery = (await api.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body as Json;
    await api.post(`/api/v1/sandbox/deliveries/${delivery.id}/advance`, { to: 'failed' }).expect(200);
    let body: Json = {};
    await waitFor(async () => {
      body = (await timelineOf(owner, `/admin/v1/deliveries/${delivery.id}/timeline?mode=test`).expect(200)).body as Json;
      return body.timeline.at(-1)?.events[0]?.messages[0]?.status === 'succeeded';
    }, 'the failed event delivered');

    const minutes = Math.round(ctx.config.DISPATCH_TIMEOUT_S / 60);
    expect(body.outcome).toEqual({
      code: 'no_couriers_available',
      summary: `No courier accepted within ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      next_step: 'Nothing was charged; create the delivery again or widen the area (a pick-up where couriers are online).',
    });
    expect(body.timeline.map((entry: Json) => entry.status)).toEqual(['pending', 'failed']);
    expect(body.timeline[0]).toEqual({ status: 'pending', at: delivery.created_at, events: [] });
    const [event] = body.timeline[1].events as Json[];
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'delivery.failed' });
    expect(event!.messages).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^whd_/), endpoint_id: endpoint.id, endpoint_url: endpoint.url, status: 'succeeded', attempts: 1, last_status_code: 200 }),
    ]);
    // The fee in parts: a delivery has no time part and no surge; the parts add up to the fee charged.
    expect(body.price).toMatchObject({ time: 0, surge: 0, total: delivery.fee.amount, currency: delivery.fee.currency, duration_seconds: null });
    expect(partsSum(body.price)).toBe(delivery.fee.amount);
    expect(body.price.distance_meters).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown delivery, one of another organization or of the other mode, and 401 without a token', async () => {
    const { api, owner } = await testPartner();
    const delivery = (await api.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body as Json;
    const unknown = await timelineOf(owner, '/admin/v1/deliveries/dlv_doesnotexist/timeline?mode=test').expect(404);
    expect(unknown.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(unknown.body).toMatchObject({ status: 404, code: 'not_found' });
    await timelineOf(newAdmin(), `/admin/v1/deliveries/${delivery.id}/timeline?mode=test`).expect(404);
    await timelineOf(owner, `/admin/v1/deliveries/${delivery.id}/timeline`).expect(404);
    await request(ctx.app).get(`/admin/v1/deliveries/${delivery.id}/timeline?mode=test`).expect(401);
    // Reading changes nothing.
    expect((await api.get(`/api/v1/deliveries/${delivery.id}`).expect(200)).body).toMatchObject({ status: 'pending', sequence: delivery.sequence });
  });
});

describe('GET /admin/v1/rides/{id}/timeline', () => {
  it('lists every status of a completed ride oldest first with its event, no outcome, and the fare in parts adding up to the fare', async () => {
    const { api, owner } = await testPartner();
    const ride = (await api.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
    await api.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'completed' }).expect(200);
    const body = (await timelineOf(owner, `/admin/v1/rides/${ride.id}/timeline?mode=test`).expect(200)).body as Json;
    expect(body).toMatchObject({ id: ride.id, status: 'completed', outcome: null });
    expect(body.timeline.map((entry: Json) => [entry.status, entry.events.map((e: Json) => e.type)])).toEqual([
      ['pending', []],
      ['accepted', ['ride.accepted']],
      ['arrived', ['ride.arrived']],
      ['in_progress', ['ride.in_progress']],
      ['completed', ['ride.completed']],
    ]);
    const times = body.timeline.map((entry: Json) => Date.parse(entry.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Economy: 500.00 NGN base, per km and per minute at 25 km/h; no surge pricing.
    expect(body.price).toMatchObject({ base: 50_000, surge: 0, total: ride.fare.amount, currency: 'NGN' });
    expect(body.price.distance).toBeGreaterThan(0);
    expect(body.price.time).toBeGreaterThan(0);
    expect(body.price.duration_seconds).toBeGreaterThan(0);
    expect(partsSum(body.price)).toBe(ride.fare.amount);
  });

  it('says a ride nobody accepted had no driver in time, and one the partner cancelled was cancelled by it', async () => {
    const { api, owner } = await testPartner();
    const lonely = (await api.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
    await api.post(`/api/v1/sandbox/rides/${lonely.id}/advance`, { to: 'no_drivers_available' }).expect(200);
    expect((await timelineOf(owner, `/admin/v1/rides/${lonely.id}/timeline?mode=test`).expect(200)).body.outcome).toMatchObject({
      code: 'no_drivers_available',
      summary: expect.stringMatching(/^No driver accepted within \d+ minutes?\.$/),
      next_step: expect.stringContaining('Nothing was charged'),
    });
    const cancelled = (await api.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
    await api.post(`/api/v1/rides/${cancelled.id}/cancel`).expect(200);
    expect((await timelineOf(owner, `/admin/v1/rides/${cancelled.id}/timeline?mode=test`).expect(200)).body.outcome).toMatchObject({
      code: 'cancelled_by_partner',
      summary: 'Your organization cancelled the ride through the API.',
    });
    await timelineOf(owner, '/admin/v1/rides/not-a-ride/timeline?mode=test').expect(404);
  });
});
