import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { queuedBehindHold } from './helpers/documents';
import { newOrg, type TestOrg } from './factories/admin';
import { pngBase64, templateInput } from './factories/templates';

/**
 * The fair-share governor on the route table's cost classes: a render-cost operation (template create, update,
 * previews, dashboard documents) holds one of its account's units while in flight, counted over every organization the
 * account owns, so making organizations does not multiply what one free sign-up may hold. The render pool is held busy
 * on purpose (`renderPool.hold()`), so the requests stay in flight as long as the test needs.
 */
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({
    DOCUMENT_RENDER_WORKERS: '1',
    DOCUMENT_RENDERS_PER_ORGANIZATION: '2',
    GOVERNOR_RENDERS_PER_ACCOUNT: '2',
    GOVERNOR_RENDERS_PER_PROCESS: '8',
    GOVERNOR_PAID_FACTOR: '3',
  });
});
afterAll(() => ctx.close());

const withImage = () => templateInput({ logo: { data: pngBase64(64, 32) } });
const create = (org: TestOrg) => request(ctx.app).post('/admin/v1/templates').set('Authorization', org.admin()).send(withImage());

/** An account owning `count` organizations, as sign-up and "new organization" make them. */
async function accountOwning(count: number, on: TestContext = ctx): Promise<{ id: string; organizations: TestOrg[] }> {
  const id = `acc_${randomBytes(5).toString('hex')}`;
  await on.db('accounts').insert({ id, email: `${id}@example.test`, name: 'Flooder', password_hash: 'scrypt$x' });
  const organizations = Array.from({ length: count }, () => newOrg(on));
  for (const org of organizations) {
    await on.db('organizations').insert({ id: org.org, name: org.orgName, balance: 0 });
    await on.db('memberships').insert({ organization_id: org.org, account_id: id, role: 'owner' });
  }
  return { id, organizations };
}

describe('the fair-share governor on render-cost operations', () => {
  it("counts a free account's organizations together: its third template upload in flight is a 429 before the body is read; another account's is not", async () => {
    const flooder = await accountOwning(3);
    const bystander = newOrg(ctx);
    const release = await ctx.services.renderPool.hold();
    const answers = [];
    try {
      answers.push(await queuedBehindHold(ctx.services.renderPool, () => create(flooder.organizations[0]!), 1));
      answers.push(await queuedBehindHold(ctx.services.renderPool, () => create(flooder.organizations[1]!), 2));
      // A third organization of the same account: each organization holds only one, the account holds two.
      const refused = await create(flooder.organizations[2]!).expect(429);
      expect(refused.body).toMatchObject({ code: 'too_many_in_flight', detail: expect.stringContaining('at most 2 on the free plan') });
      expect(refused.headers['retry-after']).toBe('1');
      expectToMatchRouteTable(refused);
      answers.push(await queuedBehindHold(ctx.services.renderPool, () => create(bystander), 3));
    } finally {
      release();
    }
    expect((await Promise.all(answers.map(({ answer }) => answer))).map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await ctx.db('templates').where({ organization_id: flooder.organizations[2]!.org })).toEqual([]);
    // Every unit came back with its answer: the refused organization uploads now.
    expect((await create(flooder.organizations[2]!)).status).toBe(201);
  });

  it('gives an account that pays for any of its organizations GOVERNOR_PAID_FACTOR times as many', async () => {
    const payer = await accountOwning(2);
    await ctx.db('users').insert({ id: payer.organizations[1]!.owner, organization_id: payer.organizations[1]!.org, plan: 'pro' });
    const release = await ctx.services.renderPool.hold();
    const answers = [];
    try {
      // A free account's third would be a 429 (above); each organization stays within its own render budget of 2.
      for (const [n, index] of [0, 1, 0].entries()) answers.push(await queuedBehindHold(ctx.services.renderPool, () => create(payer.organizations[index]!), n + 1));
    } finally {
      release();
    }
    expect((await Promise.all(answers.map(({ answer }) => answer))).map((answer) => answer.status)).toEqual([201, 201, 201]);
  });
});

describe('the fair-share governor: starts per account a minute', () => {
  let limited: TestContext;
  beforeAll(() => {
    limited = createTestContext({ GOVERNOR_RENDERS_PER_ACCOUNT_PER_MINUTE: '12', GOVERNOR_PAID_FACTOR: '3' });
  });
  afterAll(() => limited.close());

  it("refuses a free account's fourth quick template upload across its organizations at 12 a minute (429 rate_limited, Retry-After 5), nothing stored; another account uploads", async () => {
    const flooder = await accountOwning(2, limited);
    const upload = (org: TestOrg) => request(limited.app).post('/admin/v1/templates').set('Authorization', org.admin()).send(templateInput());
    for (const org of [flooder.organizations[0]!, flooder.organizations[1]!, flooder.organizations[0]!]) expect((await upload(org)).status).toBe(201);
    const refused = await upload(flooder.organizations[1]!).expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('faster than 12 a minute, the free plan') });
    expect(refused.headers['retry-after']).toBe('5');
    expectToMatchRouteTable(refused);
    expect(await limited.db('templates').whereIn('organization_id', flooder.organizations.map((org) => org.org)).count({ n: '*' })).toEqual([{ n: '3' }]);
    expect((await upload(newOrg(limited))).status).toBe(201);
  });
});
