/** `GET /admin/v1/summary`: the dashboard home's per-day numbers, of the token's organization only. */
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /admin/v1/summary', () => {
  it('counts certificates issued and credits spent per UTC day, in all and this month, for the caller organization only', async () => {
    const org = newOrg(ctx);
    const other = newOrg(ctx);
    await request(ctx.app).post('/admin/v1/certificates/batch').set('Authorization', org.admin()).send({ certificates: [certificateInput(), certificateInput()] }).expect(201);
    await request(ctx.app).post('/admin/v1/certificates').set('Authorization', other.admin()).send(certificateInput()).expect(201);

    const res = await request(ctx.app).get('/admin/v1/summary').query({ days: 7 }).set('Authorization', org.admin('member', `member_${org.org}`)).expect(200);
    expectToMatchRouteTable(res);
    expect(res.body.days).toHaveLength(7);
    expect(res.body.days.at(-1)).toEqual({ date: today(), certificates_issued: 2, credits_used: 2 });
    expect(res.body.days.slice(0, -1).every((day: { certificates_issued: number }) => day.certificates_issued === 0)).toBe(true);
    expect(res.body).toMatchObject({ certificates_issued: 2, credits_used_this_month: 2 });
    expect((await request(ctx.app).get('/admin/v1/summary').set('Authorization', org.admin()).expect(200)).body.days).toHaveLength(30);
  });

  it('refuses a bad window with 422 and no token with 401', async () => {
    const org = newOrg(ctx);
    for (const days of ['0', '91', 'abc']) {
      const res = await request(ctx.app).get('/admin/v1/summary').query({ days }).set('Authorization', org.admin()).expect(422);
      expect(res.headers['content-type']).toMatch(/json/);
    }
    await request(ctx.app).get('/admin/v1/summary').expect(401);
  });
});
