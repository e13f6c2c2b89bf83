import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { certificateInput, createApiKey, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

async function ledgerSum(org: string): Promise<number> {
  const row = await ctx.db('credit_ledger').where({ organization_id: org }).sum({ total: 'delta' }).first();
  return Number(row?.total ?? 0);
}

describe('credits', () => {
  it('grants the free plan’s 10 credits once, when the organization is first seen', async () => {
    const org = newOrg(ctx);
    await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', org.admin()).expect(200);
    await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', org.admin('member', 'someone-else')).expect(200);
    const row = await ctx.db('organizations').where({ id: org.org }).first();
    expect(row.balance).toBe(10);
    expect(await ledgerSum(org.org)).toBe(10);
  });

  it('20 concurrent issues against a balance of 10: exactly 10 succeed, the rest get 402, balance 0 equals the ledger', async () => {
    const org = newOrg(ctx);
    await createApiKey(ctx, org);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(ctx.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput({ recipient_name: `Person ${i}` })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(10);
    for (const refused of results.filter((r) => r.status === 402)) {
      expect(refused.body).toMatchObject({ error: 'Insufficient certificate credits', code: 'insufficient_credits' });
    }
    const row = await ctx.db('organizations').where({ id: org.org }).first();
    expect(row.balance).toBe(0);
    expect(await ledgerSum(org.org)).toBe(0);
    expect(await ctx.db('certificates').where({ organization_id: org.org })).toHaveLength(10);
  });
});
