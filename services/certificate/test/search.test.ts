/**
 * `GET /admin/v1/search`: the dashboard's command palette finds the organization's certificates by id, verification
 * code or number (exact or prefix, any case) and its members by email, a few of each, never another organization's.
 */
import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const search = (org: TestOrg, query: Record<string, string | number>, role: 'owner' | 'member' = 'member') =>
  request(ctx.app).get('/admin/v1/search').query(query).set('Authorization', org.admin(role, `member_${org.org}`));

interface Result {
  kind: string;
  id: string;
  label: string;
  detail: string | null;
  verification_code?: string | null;
}

async function member(org: TestOrg, email: string, role = 'member') {
  const id = `acc_${randomBytes(6).toString('hex')}`;
  await ctx.db('accounts').insert({ id, email, name: `Name of ${email}`, password_hash: 'scrypt$x' });
  await ctx.db('memberships').insert({ organization_id: org.org, account_id: id, role });
  return id;
}

describe('GET /admin/v1/search (certificate)', () => {
  it("finds the organization's certificates by id, code or number and its members by email; never another organization's", async () => {
    const org = newOrg(ctx);
    const other = newOrg(ctx);
    const first = await issueCertificate(ctx, org, { recipient_name: 'Grace Hopper' });
    const second = await issueCertificate(ctx, org);
    const foreign = await issueCertificate(ctx, other);
    const tag = randomBytes(4).toString('hex');
    const ada = await member(org, `ada.${tag}@example.com`, 'owner');
    await member(other, `ada.${tag}.other@example.com`);

    const byCode = await search(org, { q: first.verification_code.toLowerCase() }).expect(200);
    // Without its dashes, and its first group alone, find it too.
    expect(((await search(org, { q: first.verification_code.replace(/-/g, '') }).expect(200)).body.data as Result[]).map((r) => r.id)).toEqual([first.id]);
    expect(((await search(org, { q: first.verification_code.slice(0, 6) }).expect(200)).body.data as Result[]).map((r) => r.id)).toContain(first.id);
    expectToMatchRouteTable(byCode);
    expect(byCode.body).toEqual({
      query: first.verification_code.toLowerCase(),
      data: [{ kind: 'certificate', id: first.id, label: first.certificate_number, detail: expect.stringContaining('Grace Hopper'), verification_code: first.verification_code }],
    });
    expect(((await search(org, { q: first.id }).expect(200)).body.data as Result[]).map((r) => r.id)).toEqual([first.id]);
    expect(((await search(org, { q: second.certificate_number }).expect(200)).body.data as Result[]).map((r) => r.id)).toEqual([second.id]);

    // A prefix of the numbers finds both, the exact match first, and `limit` caps them.
    const common = first.certificate_number.slice(0, 4);
    const both = (await search(org, { q: common }).expect(200)).body.data as Result[];
    expect(both.filter((r) => r.kind === 'certificate').map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    expect(((await search(org, { q: common, limit: 1 }).expect(200)).body.data as Result[]).filter((r) => r.kind === 'certificate')).toHaveLength(1);

    const byEmail = (await search(org, { q: `ADA.${tag}` }).expect(200)).body.data as Result[];
    expect(byEmail).toEqual([{ kind: 'member', id: ada, label: `ada.${tag}@example.com`, detail: `Name of ada.${tag}@example.com, owner` }]);

    // Another organization's certificate and member are never found; test mode has no live certificate.
    expect((await search(org, { q: foreign.verification_code }).expect(200)).body.data).toEqual([]);
    expect((await search(org, { q: `ada.${tag}.other` }).expect(200)).body.data).toEqual([]);
    expect((await search(org, { q: first.verification_code, mode: 'test' }).expect(200)).body.data).toEqual([]);
    expect((await search(org, { q: '%%' }).expect(200)).body.data).toEqual([]);
  });

  it('refuses a query shorter than 2 characters or an unknown parameter (422), and no token (401)', async () => {
    const org = newOrg(ctx);
    const short = await search(org, { q: 'a' }).expect(422);
    expect(short.body.details).toEqual([expect.objectContaining({ path: 'q' })]);
    await search(org, { q: 'ab', limit: 11 }).expect(422);
    await search(org, { q: 'ab', order: 'x' }).expect(422);
    await request(ctx.app).get('/admin/v1/search?q=ab').expect(401);
  });
});
