import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, newAdmin, type AdminIdentity } from './factories/auth';
import { driverApp, offset, onlineDriver, randomCentre, registerDriver } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const admin = (who: AdminIdentity) => ({
  get: (path: string) => request(ctx.app).get(`/admin/v1/drivers${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`),
  post: (path: string) => request(ctx.app).post(`/admin/v1/drivers${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`),
});

describe('GET /admin/v1/drivers', () => {
  it("pages through the organization's drivers, newest first, and shows no other organization's", async () => {
    const operator = newAdmin({ role: 'operator' });
    const registered = [];
    for (let i = 0; i < 3; i++) registered.push(await registerDriver(ctx, {}, operator));
    await registerDriver(ctx, {}, newAdmin({ role: 'operator' }));

    const first = await admin(operator).get('?limit=2').expect(200);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: registered[1]!.id });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([registered[2]!.id, registered[1]!.id]);
    expect(first.body.data[0]).toMatchObject({ status: 'active', serves_all_partners: false, disabled_at: null, available: false });

    const second = await admin(operator).get(`?limit=2&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: registered[0]!.id })], has_more: false, next_cursor: null });

    const owner = newAdmin({ org: operator.org, role: 'owner' });
    expect((await admin(owner).get('').expect(200)).body.data).toHaveLength(3);
  });

  it('refuses members, and a bad limit or cursor with 422', async () => {
    await admin(newAdmin({ role: 'member' })).get('').expect(403);
    const operator = newAdmin({ role: 'operator' });
    expect((await admin(operator).get('?limit=0').expect(422)).body.details[0].path).toBe('limit');
    expect((await admin(operator).get('?cursor=key_123').expect(422)).body.details[0].path).toBe('cursor');
  });
});

describe('presence and current job (the fleet page)', () => {
  it('shows a new driver offline and never seen, then online with its last report, and the ride it is on', async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    const operator = newAdmin({ org: key.owner.org, role: 'operator' });
    const fresh = await registerDriver(ctx, {}, operator);
    expect((await admin(operator).get(`/${fresh.id}`).expect(200)).body).toMatchObject({ online: false, last_seen_at: null, current_job: null });

    const driver = await onlineDriver(ctx, offset(centre, 100, 0), {}, operator);
    const seen = (await admin(operator).get('').expect(200)).body.data.find((d: { id: string }) => d.id === driver.id);
    expect(seen).toMatchObject({ online: true, current_job: null });
    expect(Date.parse(seen.last_seen_at)).not.toBeNaN();

    const ride = await partnerApi(ctx, key.token).post('/api/v1/rides', rideBody(centre)).expect(201);
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    const busy = (await admin(operator).get(`/${driver.id}`).expect(200)).body;
    expect(busy.current_job).toEqual({ id: ride.body.id, type: 'ride', status: 'accepted' });

    await driver.app.post('/availability', { available: false }).expect(200);
    expect((await admin(operator).get(`/${driver.id}`).expect(200)).body).toMatchObject({ online: false, last_seen_at: seen.last_seen_at });
  });
});

describe('POST /admin/v1/drivers/{id}/disable', () => {
  it("refuses the driver's next request, passes its open offer on and never offers it a job again", async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    const partner = partnerApi(ctx, key.token);
    const operator = newAdmin({ org: key.owner.org, role: 'operator' });
    const disabled = await onlineDriver(ctx, offset(centre, 100, 0), {}, operator);
    const other = await onlineDriver(ctx, offset(centre, 1200, 0), {}, operator);

    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    expect((await disabled.app.offers()).map((o) => o.ride_id)).toEqual([ride.body.id]);

    const res = await admin(operator).post(`/${disabled.id}/disable`).expect(200);
    expect(res.body).toMatchObject({ id: disabled.id, status: 'disabled', available: false, disabled_at: expect.any(String) });

    const refused = await disabled.app.get('/offers');
    expect([refused.status, refused.body.code]).toEqual([401, 'driver_disabled']);
    expect((await other.app.offers()).map((o) => o.ride_id)).toEqual([ride.body.id]);
    expect(await ctx.db('dispatch_offers').where({ job_id: ride.body.id, driver_id: disabled.id }).first()).toMatchObject({ status: 'declined' });

    const next = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    expect(await ctx.db('dispatch_offers').where({ job_id: next.body.id })).toHaveLength(0); // the nearest is disabled, the other busy
    expect((await admin(operator).get('').expect(200)).body.data.find((d: { id: string }) => d.id === disabled.id)).toMatchObject({ status: 'disabled' });

    const again = await admin(operator).post(`/${disabled.id}/disable`).expect(200);
    expect(again.body.disabled_at).toBe(res.body.disabled_at);
  });

  it("keeps a disabled driver out of dispatch even when its last position is still indexed", async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    const operator = newAdmin({ org: key.owner.org, role: 'operator' });
    const driver = await onlineDriver(ctx, offset(centre, 100, 0), {}, operator);
    await admin(operator).post(`/${driver.id}/disable`).expect(200);
    await ctx.redis.geoadd(`${ctx.config.REDIS_PREFIX}:fleet:geo:driver:economy:org:${operator.org}`, centre.lng, centre.lat, driver.id); // a stale index entry
    const ride = await partnerApi(ctx, key.token).post('/api/v1/rides', rideBody(centre)).expect(201);
    expect(await ctx.db('dispatch_offers').where({ job_id: ride.body.id })).toHaveLength(0);
  });

  it("answers 404 for another organization's driver or an id of the wrong shape, and 403 for members", async () => {
    const driver = await registerDriver(ctx, {}, newAdmin({ role: 'operator' }));
    await admin(newAdmin({ role: 'operator' })).post(`/${driver.id}/disable`).expect(404);
    await admin(newAdmin({ role: 'operator' })).post('/not-a-driver/disable').expect(404);
    await admin(newAdmin({ role: 'member' })).post(`/${driver.id}/disable`).expect(403);
    await driverApp(ctx, driver.id).get('/offers').expect(200);
  });
});

describe('the audit log of fleet changes', () => {
  it('records a registration, a fresh activation code and disabling (who, which driver, from where); refusals record nothing', async () => {
    const owner = newAdmin();
    const operator = newAdmin({ org: owner.org, role: 'operator' });
    const driver = await registerDriver(ctx, {}, operator);
    await admin(operator).post(`/${driver.id}/activation-codes`).set('X-Forwarded-For', '198.51.100.7').expect(201);
    await admin(operator).post(`/${driver.id}/disable`).expect(200);
    await admin(operator).post(`/${driver.id}/activation-codes`).expect(409); // a disabled driver gets no code: nothing recorded
    await admin(newAdmin({ org: owner.org, role: 'member' })).post(`/${driver.id}/disable`).expect(403); // refused: nothing recorded
    await admin(operator).post('/drv_00000000000000000000/disable').expect(404);

    const log = await request(ctx.app).get('/admin/v1/audit-log').set('Authorization', `Bearer ${adminToken(ctx, owner)}`).expect(200);
    expect(log.body.data).toEqual([
      expect.objectContaining({ action: 'driver.disabled', target_id: driver.id, actor_id: operator.sub, actor_role: 'operator' }),
      expect.objectContaining({ action: 'driver.activation_code_issued', target_id: driver.id, actor_id: operator.sub, details: {}, ip_address: '198.51.100.7' }),
      expect.objectContaining({ action: 'driver.registered', target_id: driver.id, details: { name: driver.name, kind: 'driver', tier: 'economy' } }),
    ]);
    expect(JSON.stringify(log.body)).not.toMatch(/[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/); // never a code
  });
});
