import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { offset, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
let partner: ReturnType<typeof partnerApi>;
let token: string;
beforeAll(async () => {
  ctx = createTestContext();
  token = (await createPartnerKey(ctx)).token;
  partner = partnerApi(ctx, token);
});
afterAll(() => ctx.close());

const centre = randomCentre();

describe('ride and estimate input', () => {
  it.each([
    ['latitude out of range', rideBody({ lat: 91, lng: 3 }), 'pickup.lat'],
    ['longitude as a string', rideBody(centre, { dropoff: { lat: 6.5, lng: '3.3' } }), 'dropoff.lng'],
    ['unknown tier', rideBody(centre, { tier: 'helicopter' }), 'tier'],
    ['missing passenger', { ...rideBody(centre), passenger: undefined }, 'passenger'],
    ['passenger without phone', rideBody(centre, { passenger: { name: 'Ada' } }), 'passenger.phone'],
    ['over 200 km', rideBody(centre, { dropoff: offset(centre, 160_000, 0) }), 'dropoff'],
  ])('refuses a ride with %s: 422 with details', async (_name, body, path) => {
    const res = await partner.post('/api/v1/rides', body).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.any(String) })]));
  });

  it.each([
    ['bad coordinates', { pickup: { lat: -100, lng: 0 }, dropoff: centre }, 'pickup.lat'],
    ['missing dropoff', { pickup: centre }, 'dropoff'],
    ['over 200 km', { pickup: centre, dropoff: offset(centre, 0, 170_000) }, 'dropoff'],
  ])('refuses an estimate with %s: 422 with details', async (_name, body, path) => {
    const res = await partner.post('/api/v1/estimates', body).expect(422);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('quotes every tier with distance, duration, fare and expiry', async () => {
    const res = await partner.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 4000, 3000) }).expect(200);
    expect(res.body.id).toMatch(/^est_/);
    expect(res.body.distance_meters).toBeGreaterThan(6400); // 5 km straight × 1.3
    expect(res.body.distance_meters).toBeLessThan(6600);
    expect(res.body.duration_seconds).toBeGreaterThan(0);
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    expect(res.body.estimates.map((e: { tier: string }) => e.tier)).toEqual(['moto', 'economy', 'comfort', 'xl']);
    for (const e of res.body.estimates) {
      expect(e).toEqual({ tier: e.tier, display_name: expect.any(String), fare: { amount: expect.any(Number), currency: 'NGN' }, duration_seconds: expect.any(Number), pickup_eta_seconds: null, available: false });
      expect(Number.isInteger(e.fare.amount)).toBe(true);
    }
    const [moto, economy, comfort, xl] = res.body.estimates.map((e: { fare: { amount: number } }) => e.fare.amount);
    expect(moto).toBeLessThan(economy);
    expect(economy).toBeLessThan(comfort);
    expect(comfort).toBeLessThan(xl);
  });

  it('never answers bad input with a 500 or HTML', async () => {
    const bodies: unknown[] = [null, [], 'text', 42, {}, { pickup: null }, { pickup: { lat: 'NaN' } }, { pickup: centre, dropoff: 'x', tier: ['economy'] }];
    for (const path of ['/api/v1/rides', '/api/v1/estimates']) {
      for (const body of bodies) {
        const res = await request(ctx.app).post(path).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(JSON.stringify(body));
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), code: expect.any(String) }));
      }
      const broken = await request(ctx.app).post(path).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send('{"pickup":');
      expect(broken.status).toBe(400);
      const form = await request(ctx.app).post(path).set('Authorization', `Bearer ${token}`).set('Content-Type', 'text/plain').send('hello');
      expect(form.status).toBe(415);
    }
    const badKey = await request(ctx.app).post('/api/v1/rides').set('Authorization', `Bearer ${token}`).set('Idempotency-Key', 'x'.repeat(300)).send(rideBody(centre)).expect(422);
    expect(badKey.body.details[0].path).toBe('Idempotency-Key');
  });

  it('answers 404 for ids of the wrong shape and for rides that do not exist', async () => {
    for (const id of ['nope', 'ride_', 'ride_ABC', "ride_' or 1=1", 'ride_00000000000000000000', '%E0%A4%A']) {
      const get = await partner.get(`/api/v1/rides/${id}`);
      expect([404, 400]).toContain(get.status);
      expect(get.body.code).toEqual(expect.any(String));
      if (!id.startsWith('%')) expect(get.status).toBe(404);
      const cancel = await partner.post(`/api/v1/rides/${id}/cancel`);
      expect(cancel.status).toBeLessThan(500);
    }
  });

  it("answers 404 for another partner's ride", async () => {
    const mine = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    const stranger = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const res = await stranger.get(`/api/v1/rides/${mine.body.id}`).expect(404);
    expect(res.body).toMatchObject({ error: 'Ride not found', code: 'not_found' });
    await stranger.post(`/api/v1/rides/${mine.body.id}/cancel`).expect(404);
    expect((await partner.get(`/api/v1/rides/${mine.body.id}`).expect(200)).body.status).toBe('pending');
  });

  it('tags a ride with an ETag, answers If-None-Match with 304 while it is unchanged, and with the ride once it changes', async () => {
    const ride = await partner.post('/api/v1/rides', rideBody(randomCentre())).expect(201);
    const first = await partner.get(`/api/v1/rides/${ride.body.id}`).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const unchanged = await partner.get(`/api/v1/rides/${ride.body.id}`).set('If-None-Match', etag).expect(304);
    expect(unchanged.text).toBe('');
    await partner.post(`/api/v1/rides/${ride.body.id}/cancel`).expect(200);
    const cancelled = await partner.get(`/api/v1/rides/${ride.body.id}`).set('If-None-Match', etag).expect(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.headers.etag).not.toBe(etag);
  });

  it('answers a known path with a method it does not take as 405 with Allow', async () => {
    const res = await request(ctx.app).put('/api/v1/rides/ride_1').set('Authorization', `Bearer ${token}`).send({}).expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toMatchObject({ status: 405, code: 'method_not_allowed' });
    const list = await request(ctx.app).delete('/api/v1/rides').set('Authorization', `Bearer ${token}`).expect(405);
    expect(list.headers.allow).toBe('GET, POST, HEAD');
  });
});
