import request from 'supertest';
import { signDriverToken } from '@platform/service-kit/admin-auth';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, driverToken, newAdmin } from './factories/auth';
import { driverApp, randomCentre, registerDriver } from './factories/fleet';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const vehicle = { make: 'Honda', model: 'Fit', plate: 'ABC-123', color: 'blue' };

describe('fleet and driver app', () => {
  it('lets operators and owners register drivers, not members', async () => {
    for (const role of ['operator', 'owner'] as const) {
      const res = await request(ctx.app)
        .post('/admin/v1/drivers')
        .set('Authorization', `Bearer ${adminToken(ctx, newAdmin({ role }))}`)
        .send({ name: 'Bola', phone: '+2348011111111', kind: 'courier', tier: 'moto', vehicle })
        .expect(201);
      expect(res.body).toMatchObject({ name: 'Bola', kind: 'courier', tier: 'moto', vehicle, available: false, rating: 5 });
      expect(res.body.id).toMatch(/^drv_[0-9a-z]{20}$/);
    }
    await request(ctx.app)
      .post('/admin/v1/drivers')
      .set('Authorization', `Bearer ${adminToken(ctx, newAdmin({ role: 'member' }))}`)
      .send({ name: 'Bola', phone: '+2348011111111', kind: 'driver', tier: 'moto', vehicle })
      .expect(403);
  });

  it('validates a driver registration', async () => {
    const res = await request(ctx.app)
      .post('/admin/v1/drivers')
      .set('Authorization', `Bearer ${adminToken(ctx, newAdmin({ role: 'operator' }))}`)
      .send({ name: 'Bola', phone: 'call me', kind: 'pilot', tier: 'jet', vehicle: { make: 'Honda' } })
      .expect(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['phone', 'kind', 'tier', 'vehicle.model', 'vehicle.plate', 'vehicle.color']),
    );
  });

  it('keeps available drivers in the Redis GEO index of their tier, with telemetry, all under the prefix', async () => {
    const operator = newAdmin({ role: 'operator' });
    const driver = await registerDriver(ctx, { tier: 'xl' }, operator);
    const app = driverApp(ctx, driver.id);
    const at = randomCentre();
    const reported = await app.post('/location', { ...at, heading: 270, speed_kph: 35 }).expect(200);
    expect(reported.body).toMatchObject({ ...at, heading: 270, speed_kph: 35 });
    const index = `${ctx.config.REDIS_PREFIX}:fleet:geo:driver:xl:org:${operator.org}`;
    expect(await ctx.redis.zscore(index, driver.id)).toBeNull(); // not available yet
    expect((await app.post('/availability', { available: true }).expect(200)).body.available).toBe(true);
    const [position] = await ctx.redis.geopos(index, driver.id);
    expect(Number(position![1])).toBeCloseTo(at.lat, 4);
    expect(await ctx.redis.hget(`${ctx.config.REDIS_PREFIX}:fleet:telemetry:${driver.id}`, 'heading')).toBe('270');
    await app.post('/availability', { available: false }).expect(200);
    expect(await ctx.redis.zscore(index, driver.id)).toBeNull();
  });

  it('refuses driver requests without a valid driver token', async () => {
    await request(ctx.app).get('/driver/v1/offers').expect(401);
    const admin = adminToken(ctx, newAdmin());
    await request(ctx.app).get('/driver/v1/offers').set('Authorization', `Bearer ${admin}`).expect(401);
    const ghost = signDriverToken('drv_00000000000000000000', ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
    await request(ctx.app).get('/driver/v1/offers').set('Authorization', `Bearer ${ghost}`).expect(401);
    const forged = signDriverToken('drv_00000000000000000000', 'another-secret-of-16+chars', { issuer: ctx.config.JWT_ISSUER });
    await request(ctx.app).get('/driver/v1/offers').set('Authorization', `Bearer ${forged}`).expect(401);
  });

  it('validates availability and location reports', async () => {
    const app = driverApp(ctx, (await registerDriver(ctx)).id);
    expect((await app.post('/availability', { available: 'yes' }).expect(422)).body.details[0].path).toBe('available');
    const bad = await app.post('/location', { lat: 95, lng: 0, heading: 400 }).expect(422);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['lat', 'heading']);
  });

  it('never answers bad driver-app or admin input with a 500 or HTML', async () => {
    const driver = await registerDriver(ctx);
    const token = driverApp(ctx, driver.id);
    const admin = `Bearer ${adminToken(ctx, newAdmin())}`;
    const bodies = ['null', '[]', '"x"', '{}', '{"lat":"a"}', '{"available":null}', '{"name":{"$gt":""}}'];
    const targets: [string, string][] = [
      ['/driver/v1/location', `Bearer ${driverToken(ctx, driver.id)}`],
      ['/driver/v1/availability', `Bearer ${driverToken(ctx, driver.id)}`],
      ['/admin/v1/drivers', admin],
      ['/admin/v1/api-keys', admin],
    ];
    for (const [path, auth] of targets) {
      for (const body of bodies) {
        const res = await request(ctx.app).post(path).set('Authorization', auth).set('Content-Type', 'application/json').send(body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body.code).toEqual(expect.any(String));
      }
    }
    for (const path of ['/offers/x/accept', '/offers/ofr_00000000000000000000/decline', '/rides/ride_00000000000000000000/start', '/rides/%ZZ/start']) {
      const res = await token.post(path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/json/);
    }
  });
});
