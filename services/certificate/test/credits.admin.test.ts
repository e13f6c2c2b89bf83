import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { certificateInput, createApiKey, issueCertificate, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('GET /admin/v1/credits', () => {
  it("answers the organization's name and balance and the caller's plan, as GET /api/v1/credits does for a key", async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    await issueCertificate(ctx, org);
    const res = await request(ctx.app).get('/admin/v1/credits').set('Authorization', org.admin('member', 'user_reader')).expect(200);
    expect(res.body).toEqual({ organization: org.orgName, balance: 9, plan: 'free', livemode: true });
    const partner = await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200);
    expect(res.body).toEqual(partner.body);

    await ctx.db('users').where({ organization_id: org.org, id: org.owner }).update({ plan: 'pro' });
    expect((await request(ctx.app).get('/admin/v1/credits').set('Authorization', org.admin()).expect(200)).body.plan).toBe('pro');
    expect((await request(ctx.app).get('/admin/v1/credits').set('Authorization', org.admin('member', 'user_reader')).expect(200)).body.plan).toBe('free');
  });

  it('refuses a request without an admin token with 401 problem+json', async () => {
    const res = await request(ctx.app).get('/admin/v1/credits').expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});

describe('GET /admin/v1/credits/ledger', () => {
  it("pages through the organization's ledger newest first with the balance after each entry, and no other organization's", async () => {
    const org = newOrg(ctx);
    await createApiKey(ctx, org);
    const first = await issueCertificate(ctx, org, certificateInput({ recipient_name: 'First' }));
    const second = await issueCertificate(ctx, org, certificateInput({ recipient_name: 'Second' }));
    await issueCertificate(ctx, newOrg(ctx), certificateInput());

    const page1 = await request(ctx.app).get('/admin/v1/credits/ledger?limit=2').set('Authorization', org.admin('member', 'user_x')).expect(200);
    expect(page1.body.has_more).toBe(true);
    expect(page1.body.data).toEqual([
      { id: expect.any(String), amount: -1, reason: 'certificate_issued', reference: second.id, balance_after: 8, created_at: expect.any(String) },
      { id: expect.any(String), amount: -1, reason: 'certificate_issued', reference: first.id, balance_after: 9, created_at: expect.any(String) },
    ]);
    expect(page1.body.next_cursor).toBe(page1.body.data[1].id);

    const page2 = await request(ctx.app).get(`/admin/v1/credits/ledger?limit=2&cursor=${page1.body.next_cursor}`).set('Authorization', org.admin()).expect(200);
    expect(page2.body).toEqual({
      data: [{ id: expect.any(String), amount: 10, reason: 'free_plan_grant', reference: org.org, balance_after: 10, created_at: expect.any(String) }],
      has_more: false,
      next_cursor: null,
    });
  });

  it.each(['limit=0', 'limit=101', 'cursor=abc', 'cursor=-1'])('refuses ?%s with 422 problem+json', async (query) => {
    const org = newOrg(ctx);
    const res = await request(ctx.app).get(`/admin/v1/credits/ledger?${query}`).set('Authorization', org.admin()).expect(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
  });
});
