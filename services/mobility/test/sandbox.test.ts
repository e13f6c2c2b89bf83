import request from 'supertest';
import { waitFor } from '@platform/test-kit';
import { MOBILITY_SCOPES } from '@platform/api-keys';
import type { TestContext } from './helpers/context';
import { startDeliveringApp, stopDeliveringApp, type DeliveringApp } from './helpers/delivering-app';
import { adminToken, createPartnerKey, newAdmin } from './factories/auth';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { ORGANIZER_SCOPES, programBody } from './factories/event-passes';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
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

/** A live key and a test key of the same partner (owner). */
async function partnerKeys(scopes?: string[]) {
  const live = await createPartnerKey(ctx, { scopes });
  const test = await createPartnerKey(ctx, { scopes, owner: live.owner, mode: 'test' });
  return { live: partnerApi(ctx, live.token), test: partnerApi(ctx, test.token), liveToken: live.token, testToken: test.token, owner: live.owner };
}

const eventsAt = (path: string) => receiver.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body.toString('utf8')) as Json);

describe('test-mode keys', () => {
  it('creates mk_test_ keys with mode test, live mk_ keys by default, and keeps the mode across rotation', async () => {
    const owner = `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}`;
    const test = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', owner).send({ name: 'Staging', scopes: ['rides:read'], mode: 'test' }).expect(201);
    expect(test.body.token).toMatch(/^mk_test_[0-9A-Za-z]{36}$/);
    expect(test.body).toMatchObject({ livemode: false, token_hint: expect.stringMatching(/^mk_test…/) });
    const live = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', owner).send({ name: 'Production', scopes: ['rides:read'] }).expect(201);
    expect(live.body.token).toMatch(/^mk_[0-9A-Za-z]{36}$/);
    expect(live.body.livemode).toBe(true);

    const rotated = await request(ctx.app).post(`/admin/v1/api-keys/${test.body.id}/rotate`).set('Authorization', owner).send({}).expect(200);
    expect(rotated.body.token).toMatch(/^mk_test_/);
    await request(ctx.app).get('/api/v1/rides').set('Authorization', `Bearer ${rotated.body.token}`).expect(200);
    const list = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', owner).expect(200);
    expect(Object.fromEntries(list.body.data.map((k: Json) => [k.id, k.livemode]))).toEqual({ [test.body.id]: false, [live.body.id]: true });
  });

  it('refuses an unknown mode with 422 and creates nothing', async () => {
    const owner = `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}`;
    const res = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', owner).send({ name: 'x', scopes: ['rides:read'], mode: 'sandbox' }).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'mode' })]);
    expect((await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', owner).expect(200)).body.data).toEqual([]);
  });

  it('refuses a test token whose checksum is wrong without finding a key', async () => {
    const { testToken, test } = await partnerKeys();
    await test.get('/api/v1/rides').expect(200);
    const mistyped = `${testToken.slice(0, -1)}${testToken.endsWith('A') ? 'B' : 'A'}`;
    const res = await request(ctx.app).get('/api/v1/rides').set('Authorization', `Bearer ${mistyped}`).expect(401);
    expect(res.body).toMatchObject({ code: 'invalid_api_key', error: 'Invalid or revoked API key' });
  });
});

describe('live and test data never meet', () => {
  it('shows each key only its own mode: 404 by id, absent from lists, and cancel of the other mode changes nothing', async () => {
    const centre = randomCentre();
    const { live, test } = await partnerKeys();
    const testRide = (await test.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const liveRide = (await live.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const testDelivery = (await test.post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body;
    expect(testRide.livemode).toBe(false);
    expect(liveRide.livemode).toBe(true);
    expect(testDelivery.livemode).toBe(false);

    await live.get(`/api/v1/rides/${testRide.id}`).expect(404);
    await test.get(`/api/v1/rides/${liveRide.id}`).expect(404);
    await live.get(`/api/v1/deliveries/${testDelivery.id}`).expect(404);
    const cancel = await live.post(`/api/v1/rides/${testRide.id}/cancel`).expect(404);
    expect(cancel.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await test.get(`/api/v1/rides/${testRide.id}`).expect(200)).body.status).toBe('pending');

    expect((await live.get('/api/v1/rides').expect(200)).body.data.map((r: Json) => r.id)).toEqual([liveRide.id]);
    expect((await test.get('/api/v1/rides').expect(200)).body.data.map((r: Json) => r.id)).toEqual([testRide.id]);
    expect((await live.get('/api/v1/deliveries').expect(200)).body.data).toEqual([]);
    expect((await test.get('/api/v1/deliveries').expect(200)).body.data.map((d: Json) => d.id)).toEqual([testDelivery.id]);
    // A cursor from the other mode's list is not one of this list's.
    await live.get(`/api/v1/rides?cursor=${testRide.id}`).expect(422);
  });

  it('keeps webhook endpoints apart: a key lists and manages only its own mode', async () => {
    const { live, test, testToken } = await partnerKeys();
    const liveEndpoint = (await live.post('/api/v1/webhooks', { url: `${receiver.url}/iso/live` }).expect(201)).body;
    // The same URL may be registered once per mode.
    const testEndpoint = (await test.post('/api/v1/webhooks', { url: `${receiver.url}/iso/live` }).expect(201)).body;
    expect([liveEndpoint.livemode, testEndpoint.livemode]).toEqual([true, false]);
    expect((await live.get('/api/v1/webhooks').expect(200)).body.data.map((e: Json) => e.id)).toEqual([liveEndpoint.id]);
    expect((await test.get('/api/v1/webhooks').expect(200)).body.data.map((e: Json) => e.id)).toEqual([testEndpoint.id]);
    await request(ctx.app).delete(`/api/v1/webhooks/${liveEndpoint.id}`).set('Authorization', `Bearer ${testToken}`).expect(404);
    await live.get(`/api/v1/webhooks/${testEndpoint.id}/deliveries`).expect(404);
    // Recovering a test endpoint never pulls in live events (and the reverse).
    const liveRide = (await live.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    await live.post(`/api/v1/rides/${liveRide.id}/cancel`).expect(200);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await test.post(`/api/v1/webhooks/${testEndpoint.id}/recover`, { since, include_succeeded: true }).expect(202)).body.queued).toBe(0);
    expect((await test.get(`/api/v1/webhooks/${testEndpoint.id}/deliveries`).expect(200)).body.data).toEqual([]);
    expect((await live.get('/api/v1/webhooks').expect(200)).body.data.map((e: Json) => e.id)).toEqual([liveEndpoint.id]);
  });

  it('keeps Idempotency-Keys apart: the same key in test mode creates its own test ride', async () => {
    const centre = randomCentre();
    const { liveToken, testToken } = await partnerKeys();
    const body = rideBody(centre);
    const first = await request(ctx.app).post('/api/v1/rides').set('Authorization', `Bearer ${liveToken}`).set('Idempotency-Key', 'same-key-1').send(body).expect(201);
    const second = await request(ctx.app).post('/api/v1/rides').set('Authorization', `Bearer ${testToken}`).set('Idempotency-Key', 'same-key-1').send(body).expect(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.livemode).toBe(false);
  });

  it('estimates and quotes with the sandbox driver only: a test key never sees the live fleet\'s pickup ETAs', async () => {
    const centre = randomCentre();
    const { test, live } = await partnerKeys([...MOBILITY_SCOPES]);
    await onlineDriver(ctx, offset(centre, 2500, 0)); // economy, 2.5 km away: a long live ETA
    await onlineCourier(ctx, offset(centre, 2400, 0));
    const estimate = { pickup: centre, dropoff: offset(centre, 3000, 2000) };
    const byTier = (res: { body: Json }) => Object.fromEntries((res.body.estimates as Json[]).map((e) => [e.tier, e]));

    const liveTiers = byTier(await live.post('/api/v1/estimates', estimate).expect(200));
    expect(liveTiers.economy).toMatchObject({ available: true });
    expect(liveTiers.xl).toMatchObject({ available: false, pickup_eta_seconds: null });
    const testTiers = byTier(await test.post('/api/v1/estimates', estimate).expect(200));
    for (const tier of ['moto', 'economy', 'comfort', 'xl']) expect(testTiers[tier]).toMatchObject({ available: true, pickup_eta_seconds: 180 });
    expect(testTiers.economy.pickup_eta_seconds).not.toBe(liveTiers.economy.pickup_eta_seconds);

    const quote = { pickup: centre, dropoff: offset(centre, 3000, 2000), weight_tier: 'small' };
    const liveQuote = (await live.post('/api/v1/deliveries/quotes', quote).expect(201)).body;
    const testQuote = (await test.post('/api/v1/deliveries/quotes', quote).expect(201)).body;
    expect(liveQuote.pickup_eta_seconds).toBeGreaterThan(180);
    expect(testQuote.pickup_eta_seconds).toBe(180);
  });

  it('never offers a test ride or delivery to a nearby online driver or courier', async () => {
    const centre = randomCentre();
    const { test, live } = await partnerKeys();
    const driver = await onlineDriver(ctx, offset(centre, 100, 100));
    const courier = await onlineCourier(ctx, offset(centre, 120, 80));
    const ride = (await test.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const delivery = (await test.post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body;
    expect(await driver.app.offers()).toEqual([]);
    expect(await courier.app.offers()).toEqual([]);
    // The same driver is offered a live ride at once: the test ride was skipped, not the driver.
    const liveRide = (await live.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    expect((await driver.app.offers()).map((o) => o.ride_id)).toEqual([liveRide.id]);
    expect((await test.get(`/api/v1/rides/${ride.id}`).expect(200)).body).toMatchObject({ status: 'pending', driver: null });
    expect((await test.get(`/api/v1/deliveries/${delivery.id}`).expect(200)).body).toMatchObject({ status: 'pending', courier: null });
    const offers = await ctx.db('dispatch_offers').whereIn('job_id', [ride.id, delivery.id]);
    expect(offers).toEqual([]);
  });

  it('refuses event passes to test keys, and a test ride with a pass', async () => {
    const centre = randomCentre();
    const test = partnerApi(ctx, (await createPartnerKey(ctx, { scopes: ORGANIZER_SCOPES, mode: 'test' })).token);
    const res = await test.post('/api/v1/event-pass-programs', programBody(centre)).expect(403);
    expect(res.body).toMatchObject({ code: 'test_mode_not_supported' });
    const rider = partnerApi(ctx, (await createPartnerKey(ctx, { mode: 'test' })).token);
    const ride = await rider.post('/api/v1/rides', rideBody(centre, { event_pass: 'EVT-AAAA-BBBB-CCCCC' })).expect(422);
    expect(ride.body.details).toEqual([expect.objectContaining({ path: 'event_pass' })]);
    expect((await rider.get('/api/v1/rides').expect(200)).body.data).toEqual([]);
  });
});

describe('POST /api/v1/sandbox/rides/{id}/advance', () => {
  it('walks a requested ride to completed, firing every event in order with livemode false, to test endpoints only', async () => {
    const centre = randomCentre();
    const { live, test } = await partnerKeys();
    const testEndpoint = (await test.post('/api/v1/webhooks', { url: `${receiver.url}/ride/test` }).expect(201)).body;
    await live.post('/api/v1/webhooks', { url: `${receiver.url}/ride/live` }).expect(201);
    const ride = (await test.post('/api/v1/rides', rideBody(centre)).expect(201)).body;

    const completed = (await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'completed' }).expect(200)).body;
    expect(completed).toMatchObject({ id: ride.id, status: 'completed', livemode: false, sequence: 4, driver: { id: 'drv_sandbox_driver', name: 'Sandbox Driver' } });
    expect(await test.get(`/api/v1/rides/${ride.id}`).expect(200).then((r) => r.body)).toEqual(completed);

    await waitFor(() => eventsAt('/ride/test').length >= 4, 'four test events');
    const events = eventsAt('/ride/test').sort((a, b) => a.data.sequence - b.data.sequence);
    expect(events.map((e) => [e.type, e.data.sequence, e.livemode, e.data.livemode])).toEqual([
      ['ride.accepted', 1, false, false],
      ['ride.arrived', 2, false, false],
      ['ride.in_progress', 3, false, false],
      ['ride.completed', 4, false, false],
    ]);
    expect(events[3]!.data).toEqual(completed);

    // A live ride's event afterwards reaches the live endpoint only; the test events never did.
    const liveRide = (await live.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    await live.post(`/api/v1/rides/${liveRide.id}/cancel`).expect(200);
    await waitFor(() => eventsAt('/ride/live').length >= 1, 'the live event');
    expect(eventsAt('/ride/live').map((e) => [e.type, e.livemode, e.data.id])).toEqual([['ride.cancelled', true, liveRide.id]]);
    expect(eventsAt('/ride/test')).toHaveLength(4);

    // The events API shows each mode its own events.
    const testEvents = (await test.get(`/api/v1/events?object_id=${ride.id}`).expect(200)).body.data;
    expect(testEvents.map((e: Json) => [e.type, e.livemode])).toEqual([
      ['ride.completed', false],
      ['ride.in_progress', false],
      ['ride.arrived', false],
      ['ride.accepted', false],
    ]);
    expect((await live.get(`/api/v1/events?object_id=${ride.id}`).expect(200)).body.data).toEqual([]);
    const log = (await test.get(`/api/v1/webhooks/${testEndpoint.id}/deliveries`).expect(200)).body.data;
    expect(log).toHaveLength(4);
  });

  it('moves one status at a time, and pending to no_drivers_available', async () => {
    const { test } = await partnerKeys();
    const ride = (await test.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    expect((await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'accepted' }).expect(200)).body).toMatchObject({ status: 'accepted', sequence: 1 });
    expect((await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'arrived' }).expect(200)).body).toMatchObject({ status: 'arrived', sequence: 2 });
    const other = (await test.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    expect((await test.post(`/api/v1/sandbox/rides/${other.id}/advance`, { to: 'no_drivers_available' }).expect(200)).body).toMatchObject({
      status: 'no_drivers_available',
      driver: null,
    });
    // Cancellation stays on the normal route, for test rides too.
    expect((await test.post(`/api/v1/rides/${ride.id}/cancel`).expect(200)).body).toMatchObject({ status: 'cancelled', cancelled_by: 'partner', livemode: false });
  });

  it('refuses a target behind or beside the ride with 409, naming the status and the allowed targets, and changes nothing', async () => {
    const { test } = await partnerKeys();
    const ride = (await test.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'arrived' }).expect(200);
    for (const to of ['accepted', 'arrived', 'pending', 'no_drivers_available', 'cancelled']) {
      const res = await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to }).expect(409);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'sandbox_transition_not_allowed', current_status: 'arrived', allowed_targets: ['in_progress', 'completed'] });
    }
    await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'completed' }).expect(200);
    const ended = await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'completed' }).expect(409);
    expect(ended.body).toMatchObject({ current_status: 'completed', allowed_targets: [] });
    expect((await test.get(`/api/v1/rides/${ride.id}`).expect(200)).body).toMatchObject({ status: 'completed', sequence: 4 });
  });

  it('refuses live keys (403 livemode_key_not_allowed), missing scopes, bad bodies and other ids, changing nothing', async () => {
    const { live, test, owner } = await partnerKeys();
    const ride = (await test.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    const liveRide = (await live.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;

    const refused = await live.post(`/api/v1/sandbox/rides/${liveRide.id}/advance`, { to: 'accepted' }).expect(403);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'livemode_key_not_allowed' });
    await live.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'accepted' }).expect(403);

    const readOnly = partnerApi(ctx, (await createPartnerKey(ctx, { scopes: ['rides:read'], owner, mode: 'test' })).token);
    expect((await readOnly.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'accepted' }).expect(403)).body).toMatchObject({ code: 'insufficient_scope' });

    for (const body of [{}, { to: 'teleported' }, { to: 'accepted', extra: 1 }, { to: 3 }]) {
      const res = await test.post(`/api/v1/sandbox/rides/${ride.id}/advance`, body).expect(422);
      expect(res.body.code).toBe('validation_failed');
    }
    await test.post(`/api/v1/sandbox/rides/${liveRide.id}/advance`, { to: 'accepted' }).expect(404); // a live ride
    await test.post('/api/v1/sandbox/rides/ride_doesnotexist/advance', { to: 'accepted' }).expect(404);
    await test.post('/api/v1/sandbox/rides/not-an-id/advance', { to: 'accepted' }).expect(404);
    const stranger = partnerApi(ctx, (await createPartnerKey(ctx, { mode: 'test' })).token);
    await stranger.post(`/api/v1/sandbox/rides/${ride.id}/advance`, { to: 'accepted' }).expect(404);
    const text = await request(ctx.app).post(`/api/v1/sandbox/rides/${ride.id}/advance`).set('Authorization', `Bearer ${(await createPartnerKey(ctx, { owner, mode: 'test' })).token}`).set('Content-Type', 'text/plain').send('to=accepted');
    expect(text.status).toBe(415);

    expect((await test.get(`/api/v1/rides/${ride.id}`).expect(200)).body).toMatchObject({ status: 'pending', sequence: 0, driver: null });
    expect((await live.get(`/api/v1/rides/${liveRide.id}`).expect(200)).body.status).toBe('pending');
  });
});

describe('POST /api/v1/sandbox/deliveries/{id}/advance', () => {
  it('walks a delivery to delivered without a PIN, firing each event with livemode false', async () => {
    const { test } = await partnerKeys();
    await test.post('/api/v1/webhooks', { url: `${receiver.url}/delivery/test` }).expect(201);
    const delivery = (await test.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body;
    const delivered = (await test.post(`/api/v1/sandbox/deliveries/${delivery.id}/advance`, { to: 'delivered' }).expect(200)).body;
    expect(delivered).toMatchObject({
      status: 'delivered',
      livemode: false,
      sequence: 3,
      courier: { id: 'drv_sandbox_courier', name: 'Sandbox Courier' },
      proof_of_delivery: { received_by: 'Sandbox Recipient', location: null },
    });
    expect(delivered).not.toHaveProperty('security_pin');
    await waitFor(() => eventsAt('/delivery/test').length >= 3, 'three delivery events');
    const events = eventsAt('/delivery/test').sort((a, b) => a.data.sequence - b.data.sequence);
    expect(events.map((e) => [e.type, e.livemode])).toEqual([
      ['delivery.courier_assigned', false],
      ['delivery.picked_up', false],
      ['delivery.delivered', false],
    ]);
  });

  it('fails a delivery from pending (no couriers) or after pick-up, and refuses what the path does not allow', async () => {
    const { test, live } = await partnerKeys();
    const pending = (await test.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body;
    expect((await test.post(`/api/v1/sandbox/deliveries/${pending.id}/advance`, { to: 'failed' }).expect(200)).body).toMatchObject({
      status: 'failed',
      failure_reason: 'no_couriers_available',
    });
    const carried = (await test.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body;
    await test.post(`/api/v1/sandbox/deliveries/${carried.id}/advance`, { to: 'picked_up' }).expect(200);
    const back = await test.post(`/api/v1/sandbox/deliveries/${carried.id}/advance`, { to: 'courier_assigned' }).expect(409);
    expect(back.body).toMatchObject({ code: 'sandbox_transition_not_allowed', current_status: 'picked_up', allowed_targets: ['delivered', 'failed'] });
    expect((await test.post(`/api/v1/sandbox/deliveries/${carried.id}/advance`, { to: 'failed' }).expect(200)).body).toMatchObject({
      status: 'failed',
      failure_reason: 'sandbox_simulated_failure',
    });
    const liveDelivery = (await live.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body;
    expect((await live.post(`/api/v1/sandbox/deliveries/${liveDelivery.id}/advance`, { to: 'courier_assigned' }).expect(403)).body.code).toBe('livemode_key_not_allowed');
    expect((await live.get(`/api/v1/deliveries/${liveDelivery.id}`).expect(200)).body).toMatchObject({ status: 'pending', courier: null });
  });
});
