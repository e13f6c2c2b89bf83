import request from 'supertest';
import { signAdminToken, signDriverToken, signJwt } from '@platform/service-kit/admin-auth';
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

describe("an admin token's organization name", () => {
  it("names a new organization once; a later token's org_name never renames it nor clears its verified name", async () => {
    const org = newOrg(ctx, { orgName: 'Lagos Coding Academy' });
    await request(ctx.app).get('/admin/v1/plans').set('Authorization', org.admin()).expect(200);
    await ctx.db('organizations').where({ id: org.org }).update({ name_verified_at: new Date() });
    const impostor = signAdminToken({ sub: org.owner, org: org.org, org_name: 'Harvard University', role: 'owner' }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
    await plans(impostor).expect(200);
    const row = await ctx.db('organizations').where({ id: org.org }).first('name', 'name_verified_at');
    expect(row.name).toBe('Lagos Coding Academy');
    expect(row.name_verified_at).not.toBeNull();
  });
});
