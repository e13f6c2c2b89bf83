import request from 'supertest';
import { signAdminToken } from '@platform/service-kit/admin-auth';
import { createTestContext, type TestContext } from './helpers/context';
import { suffix } from './factories/auth';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/**
 * The certificate service's dashboard sign-in issues admin tokens of exactly this shape: `sub` the account
 * (`acc_…`), `org` its organization (`org_…`), `org_name`, the membership's role, `aud` admin, 15 minutes.
 */
function dashboardToken(role: 'owner' | 'member' | 'operator', org = `org_${suffix()}${suffix()}`.slice(0, 24)) {
  const token = signAdminToken({ sub: `acc_${suffix()}${suffix()}`, org, org_name: 'Dashboard Partner', role }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER, ttlSeconds: 900 });
  return { token, org };
}

describe('dashboard access tokens on the mobility admin API', () => {
  it('an owner token creates the partner on first sight and manages keys; a member token reads but may not create', async () => {
    const owner = dashboardToken('owner');
    const created = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', `Bearer ${owner.token}`).send({ name: 'From the dashboard', scopes: ['rides:read'] }).expect(201);
    expect(created.body.token).toMatch(/^mk_/);
    const partner = await ctx.db('partners').where({ id: owner.org }).first();
    expect(partner.name).toBe('Dashboard Partner');

    const member = dashboardToken('member', owner.org);
    const listed = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', `Bearer ${member.token}`).expect(200);
    expect(listed.body.data.map((key: { id: string }) => key.id)).toEqual([created.body.id]);
    const refused = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', `Bearer ${member.token}`).send({ name: 'nope', scopes: ['rides:read'] }).expect(403);
    expect(refused.body.code).toBe('insufficient_role');
    expect(await ctx.db('api_keys').where({ partner_id: owner.org }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});
