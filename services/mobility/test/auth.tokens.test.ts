import request from 'supertest';
import { signAdminToken, signDriverToken, signJwt } from '@platform/service-kit/admin-auth';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, newAdmin } from './factories/auth';
import { registerDriver } from './factories/fleet';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ JWT_ISSUER: 'issuer-under-test', ADMIN_TOKEN_MAX_TTL_S: '3600' });
});
afterAll(() => ctx.close());

const now = () => Math.floor(Date.now() / 1000);
const listKeys = (token: string) => request(ctx.app).get('/admin/v1/api-keys').set('Authorization', `Bearer ${token}`);
const driverOffers = (token: string) => request(ctx.app).get('/driver/v1/offers').set('Authorization', `Bearer ${token}`);

function expectInvalidToken(res: request.Response, message?: RegExp) {
  expect([res.status, res.body.code]).toEqual([401, 'invalid_token']);
  if (message) expect(res.body.error).toMatch(message);
}

describe('admin tokens: exp, iss and aud', () => {
  const claims = () => ({ ...newAdmin(), aud: 'admin', iss: 'issuer-under-test' });

  it('accepts a token with our issuer, the admin audience and a lifetime within the limit', async () => {
    await listKeys(adminToken(ctx, newAdmin())).expect(200);
    await listKeys(signJwt({ ...claims(), iat: now(), exp: now() + 3600 }, ctx.config.JWT_SECRET)).expect(200);
  });

  it('refuses a token without exp', async () => {
    expectInvalidToken(await listKeys(signJwt(claims(), ctx.config.JWT_SECRET)), /exp/);
  });

  it('refuses an expired token', async () => {
    expectInvalidToken(await listKeys(signJwt({ ...claims(), exp: now() - 120 }, ctx.config.JWT_SECRET)), /expired/);
  });

  it('refuses a token that lives longer than ADMIN_TOKEN_MAX_TTL_S, by iat or from now', async () => {
    expectInvalidToken(await listKeys(signJwt({ ...claims(), iat: now(), exp: now() + 7200 }, ctx.config.JWT_SECRET)), /lifetime/);
    expectInvalidToken(await listKeys(signJwt({ ...claims(), exp: now() + 7200 }, ctx.config.JWT_SECRET)), /lifetime/);
    expectInvalidToken(await listKeys(signAdminToken(newAdmin(), ctx.config.JWT_SECRET, { issuer: 'issuer-under-test', ttlSeconds: 2 * 3600 })));
  });

  it('refuses a token of another issuer, or with none', async () => {
    expectInvalidToken(await listKeys(signAdminToken(newAdmin(), ctx.config.JWT_SECRET, { issuer: 'someone-else' })), /issuer/);
    const { iss: _iss, ...withoutIssuer } = claims();
    expectInvalidToken(await listKeys(signJwt({ ...withoutIssuer, exp: now() + 600 }, ctx.config.JWT_SECRET)));
  });

  it('refuses a driver token, a token without aud and one naming both audiences', async () => {
    const driver = await registerDriver(ctx);
    expectInvalidToken(await listKeys(signDriverToken(driver.id, ctx.config.JWT_SECRET, { issuer: 'issuer-under-test' })), /aud/);
    const { aud: _aud, ...withoutAudience } = claims();
    expectInvalidToken(await listKeys(signJwt({ ...withoutAudience, exp: now() + 600 }, ctx.config.JWT_SECRET)), /aud/);
    expectInvalidToken(await listKeys(signJwt({ ...claims(), aud: ['admin', 'driver'], exp: now() + 600 }, ctx.config.JWT_SECRET)), /aud/);
  });

  it('refuses claims holding control characters instead of failing on them', async () => {
    expectInvalidToken(await listKeys(signJwt({ ...claims(), org: 'org\u0000x', exp: now() + 600 }, ctx.config.JWT_SECRET)));
  });
});

describe('driver tokens: exp, iss and aud', () => {
  let driverId: string;
  beforeAll(async () => {
    driverId = (await registerDriver(ctx)).id;
  });
  const claims = () => ({ sub: driverId, role: 'driver', aud: 'driver', iss: 'issuer-under-test' });

  it('accepts a driver token with our issuer and the driver audience', async () => {
    await driverOffers(signDriverToken(driverId, ctx.config.JWT_SECRET, { issuer: 'issuer-under-test' })).expect(200);
  });

  it('refuses a driver token without exp, of another issuer, or for another audience', async () => {
    expectInvalidToken(await driverOffers(signJwt(claims(), ctx.config.JWT_SECRET)), /exp/);
    expectInvalidToken(await driverOffers(signDriverToken(driverId, ctx.config.JWT_SECRET, { issuer: 'someone-else' })), /issuer/);
    expectInvalidToken(await driverOffers(signJwt({ ...claims(), aud: 'admin', exp: now() + 600 }, ctx.config.JWT_SECRET)), /aud/);
  });

  it('refuses an admin token on the driver app', async () => {
    expectInvalidToken(await driverOffers(adminToken(ctx, newAdmin({ sub: driverId, role: 'operator' }))), /aud/);
  });
});
