import request from 'supertest';
import { signAdminToken, signDriverToken, signJwt } from '@platform/service-kit';
import { createTestContext, type TestContext } from './helpers/context';
import { newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const now = () => Math.floor(Date.now() / 1000);
const plans = (token: string) => request(ctx.app).get('/admin/v1/plans').set('Authorization', `Bearer ${token}`);

describe('admin tokens of the certificate service: exp, iss and aud', () => {
  const claims = () => ({ sub: 'user_1', org: newOrg(ctx).org, role: 'owner', aud: 'admin', iss: 'partner-platform' });

  it('accepts a short-lived admin token of the default issuer', async () => {
    await plans(signAdminToken({ sub: 'user_1', org: newOrg(ctx).org, role: 'owner' }, ctx.config.JWT_SECRET)).expect(200);
  });

  it.each([
    ['without exp', () => signJwt(claims(), ctx.config.JWT_SECRET)],
    ['living longer than 12 hours', () => signJwt({ ...claims(), exp: now() + 13 * 3600 }, ctx.config.JWT_SECRET)],
    ['of another issuer', () => signJwt({ ...claims(), iss: 'elsewhere', exp: now() + 600 }, ctx.config.JWT_SECRET)],
    ['meant for drivers', () => signDriverToken('drv_00000000000000000000', ctx.config.JWT_SECRET)],
  ])('refuses a token %s with 401 and changes nothing', async (_label, token) => {
    const res = await plans(token());
    expect([res.status, res.body.code]).toEqual([401, 'invalid_token']);
  });

  it('creates no organization for a refused token', async () => {
    const org = newOrg(ctx).org;
    await plans(signJwt({ ...claims(), org }, ctx.config.JWT_SECRET)).expect(401);
    expect(await ctx.db('organizations').where({ id: org })).toHaveLength(0);
  });
});
