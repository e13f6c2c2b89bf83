import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, newAdmin, type AdminIdentity } from './factories/auth';
import { randomCentre } from './factories/fleet';
import { deliveryBody } from './factories/deliveries';
import { programBody } from './factories/event-passes';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'false' });
});
afterAll(() => ctx.close());

const PUBLIC_URL = 'https://93.184.215.14/hooks/mobility';

const admin = (who: AdminIdentity) => {
  const auth = `Bearer ${adminToken(ctx, who)}`;
  return {
    get: (path: string) => request(ctx.app).get(`/admin/v1${path}`).set('Authorization', auth),
    post: (path: string, body?: object) => {
      const req = request(ctx.app).post(`/admin/v1${path}`).set('Authorization', auth);
      return body ? req.send(body) : req;
    },
    patch: (path: string, body: object) => request(ctx.app).patch(`/admin/v1${path}`).set('Authorization', auth).send(body),
    delete: (path: string) => request(ctx.app).delete(`/admin/v1${path}`).set('Authorization', auth),
  };
};

/** A partner organization with live and test keys, one live ride (cancelled), one live delivery and one test ride. */
async function partnerWithTrips() {
  const live = await createPartnerKey(ctx);
  const test = await createPartnerKey(ctx, { owner: live.owner, mode: 'test' });
  const centre = randomCentre();
  const api = partnerApi(ctx, live.token);
  const ride = (await api.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
  await api.post(`/api/v1/rides/${ride.id}/cancel`).expect(200);
  const delivery = (await api.post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body;
  const testRide = (await partnerApi(ctx, test.token).post('/api/v1/rides', rideBody(centre)).expect(201)).body;
  return { owner: live.owner, ride, delivery, testRide, liveToken: live.token };
}

describe('GET /admin/v1/rides and /deliveries', () => {
  it("lists and reads the organization's live jobs as the partner API does, for any role", async () => {
    const { owner, ride, delivery, liveToken } = await partnerWithTrips();
    const member = admin(newAdmin({ org: owner.org, role: 'member' }));

    const rides = await member.get('/rides').expect(200);
    const partnerRides = await partnerApi(ctx, liveToken).get('/api/v1/rides').expect(200);
    expect(rides.body).toEqual(partnerRides.body);
    expect(rides.body).toEqual({ data: [expect.objectContaining({ id: ride.id, status: 'cancelled' })], has_more: false, next_cursor: null });
    expect((await member.get('/rides?status=pending').expect(200)).body.data).toEqual([]);

    const one = await member.get(`/rides/${ride.id}`).expect(200);
    expect(one.body).toMatchObject({ id: ride.id, status: 'cancelled' });
    expect(one.headers.etag).toBeDefined();

    const deliveries = await member.get('/deliveries').expect(200);
    expect(deliveries.body.data.map((d: { id: string }) => d.id)).toEqual([delivery.id]);
    const oneDelivery = await member.get(`/deliveries/${delivery.id}`).expect(200);
    expect(oneDelivery.body).toMatchObject({ id: delivery.id, status: 'pending' });
    expect(oneDelivery.body).not.toHaveProperty('security_pin');
  });

  it('shows test-mode jobs only with ?livemode=false or ?mode=test', async () => {
    const { owner, ride, testRide } = await partnerWithTrips();
    const viewer = admin(owner);
    expect((await viewer.get('/rides').expect(200)).body.data.map((r: { id: string }) => r.id)).toEqual([ride.id]);
    expect((await viewer.get('/rides?livemode=false').expect(200)).body.data.map((r: { id: string }) => r.id)).toEqual([testRide.id]);
    expect((await viewer.get('/rides?mode=test').expect(200)).body.data.map((r: { id: string }) => r.id)).toEqual([testRide.id]);
    await viewer.get(`/rides/${testRide.id}`).expect(404);
    await viewer.get(`/rides/${testRide.id}?mode=test`).expect(200);
  });

  it("tells the dashboard which mode its own job is in (404 in the other mode, 200 in its own), and another organization's job is 404 in both", async () => {
    const { owner, ride, delivery, testRide } = await partnerWithTrips();
    const viewer = admin(owner);
    // The dashboard's cross-mode link: a page in the wrong mode gets 404 and asks the other mode, with the same session.
    for (const [path, mode] of [[`/rides/${ride.id}`, 'live'], [`/deliveries/${delivery.id}`, 'live'], [`/rides/${testRide.id}`, 'test']] as const) {
      const other = mode === 'live' ? '?mode=test' : '';
      const own = mode === 'live' ? '' : '?mode=test';
      expect((await viewer.get(`${path}${other}`).expect(404)).body.code).toBe('not_found');
      expect((await viewer.get(`${path}${own}`).expect(200)).body.livemode).toBe(mode === 'live');
    }
    // Nothing crosses organizations: a stranger's session finds neither job in either mode, answered as an unknown id is.
    const stranger = admin(newAdmin());
    const unknown = (await stranger.get('/rides/ride_doesnotexist00000000').expect(404)).body;
    for (const query of ['', '?mode=test']) {
      for (const id of [ride.id, testRide.id]) {
        const refused = await stranger.get(`/rides/${id}${query}`).expect(404);
        expect({ ...refused.body, detail: '', error: '' }).toEqual({ ...unknown, detail: '', error: '' });
      }
    }
  });

  it("answers 404 for another organization's job and 422 for a bad query, as problem+json", async () => {
    const { ride, delivery } = await partnerWithTrips();
    const stranger = admin(newAdmin());
    const notFound = await stranger.get(`/rides/${ride.id}`).expect(404);
    expect(notFound.headers['content-type']).toMatch(/application\/problem\+json/);
    await stranger.get(`/deliveries/${delivery.id}`).expect(404);
    await stranger.get('/rides/not-a-ride').expect(404);
    expect((await stranger.get('/rides').expect(200)).body.data).toEqual([]);

    for (const query of ['livemode=maybe', 'mode=sandbox', 'livemode=true&mode=test', 'status=flying', 'limit=0', 'cursor=del_123']) {
      const res = await stranger.get(`/rides?${query}`).expect(422);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
    }
    await request(ctx.app).get('/admin/v1/rides').expect(401);
  });
});

describe('GET /admin/v1/events', () => {
  it("lists the organization's events, filtered by object_id", async () => {
    const { owner, ride } = await partnerWithTrips();
    const res = await admin(newAdmin({ org: owner.org, role: 'member' })).get(`/events?object_id=${ride.id}`).expect(200);
    expect(res.body.data).toEqual([expect.objectContaining({ type: 'ride.cancelled', data: expect.objectContaining({ id: ride.id, status: 'cancelled' }) })]);
    expect((await admin(newAdmin()).get(`/events?object_id=${ride.id}`).expect(200)).body.data).toEqual([]);
    expect((await admin(owner).get('/events?limit=1000').expect(422)).body.code).toBe('validation_failed');
  });
});

describe('/admin/v1/webhooks', () => {
  it('lets owners and operators manage endpoints and any role read them; the secret is shown once', async () => {
    const owner = newAdmin();
    const operator = admin(newAdmin({ org: owner.org, role: 'operator' }));
    const member = admin(newAdmin({ org: owner.org, role: 'member' }));

    const created = await operator.post('/webhooks', { url: PUBLIC_URL, events: ['ride.completed'] }).expect(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.id as string;

    const list = await member.get('/webhooks').expect(200);
    expect(list.body).toEqual({ data: [expect.objectContaining({ id, url: PUBLIC_URL, events: ['ride.completed'] })], has_more: false, next_cursor: null });
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    const one = await member.get(`/webhooks/${id}`).expect(200);
    expect(one.body).toMatchObject({ id, status: 'enabled' });
    expect(one.body).not.toHaveProperty('secret');

    const refused = await member.patch(`/webhooks/${id}`, { enabled: false }).expect(403);
    expect(refused.body.code).toBe('insufficient_role');
    await member.delete(`/webhooks/${id}`).expect(403);
    await member.post(`/webhooks/${id}/rotate-secret`).expect(403);
    await member.post('/webhooks', { url: PUBLIC_URL }).expect(403);
    expect((await member.get(`/webhooks/${id}`).expect(200)).body.status).toBe('enabled');

    const updated = await admin(owner).patch(`/webhooks/${id}`, { description: 'ops', enabled: false }).expect(200);
    expect(updated.body).toMatchObject({ description: 'ops', status: 'disabled' });
    const rotated = await operator.post(`/webhooks/${id}/rotate-secret`).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await member.get(`/webhooks/${id}/deliveries`).expect(200)).body).toEqual({ data: [], has_more: false, next_cursor: null });

    // Live by default: a test-mode endpoint is seen only in test mode.
    const testEndpoint = await operator.post('/webhooks?mode=test', { url: PUBLIC_URL }).expect(201);
    expect((await member.get('/webhooks').expect(200)).body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await member.get('/webhooks?livemode=false').expect(200)).body.data.map((e: { id: string }) => e.id)).toEqual([testEndpoint.body.id]);

    await operator.delete(`/webhooks/${id}`).expect(204);
    await member.get(`/webhooks/${id}`).expect(404);
  });

  it("answers 404 for another organization's endpoint and 422 for a bad body, changing nothing", async () => {
    const owner = admin(newAdmin());
    const { body: endpoint } = await owner.post('/webhooks', { url: PUBLIC_URL }).expect(201);
    const stranger = admin(newAdmin());
    await stranger.get(`/webhooks/${endpoint.id}`).expect(404);
    await stranger.patch(`/webhooks/${endpoint.id}`, { enabled: false }).expect(404);
    await stranger.delete(`/webhooks/${endpoint.id}`).expect(404);

    const bad = await owner.post('/webhooks', { url: 'http://127.0.0.1/hooks' }).expect(422);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    expect((await owner.patch(`/webhooks/${endpoint.id}`, {}).expect(422)).body.code).toBe('validation_failed');
    expect((await owner.get('/webhooks').expect(200)).body.data).toEqual([expect.objectContaining({ id: endpoint.id, status: 'enabled' })]);
  });
});

describe('/admin/v1/event-pass-programs', () => {
  it('lets owners and operators create and close programs, any role read them, and no other organization see them', async () => {
    const owner = newAdmin();
    const operator = admin(newAdmin({ org: owner.org, role: 'operator' }));
    const member = admin(newAdmin({ org: owner.org, role: 'member' }));
    const body = programBody(randomCentre());

    expect((await member.post('/event-pass-programs', body).expect(403)).body.code).toBe('insufficient_role');
    const created = await operator.post('/event-pass-programs', body).expect(201);
    const id = created.body.id as string;
    expect((await member.get('/event-pass-programs').expect(200)).body.data).toEqual([expect.objectContaining({ id, name: 'Test Fest' })]);
    expect((await member.get(`/event-pass-programs/${id}`).expect(200)).body.id).toBe(id);

    await admin(newAdmin()).get(`/event-pass-programs/${id}`).expect(404);
    await admin(newAdmin()).post(`/event-pass-programs/${id}/close`).expect(404);
    await member.post(`/event-pass-programs/${id}/close`).expect(403);
    expect((await operator.post('/event-pass-programs', { ...body, budget: 0 }).expect(422)).body.code).toBe('validation_failed');

    const closed = await admin(owner).post(`/event-pass-programs/${id}/close`).expect(200);
    expect(closed.body.status).toBe('closed');
  });
});
