import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, pdfText } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, createApiKey, issueCertificate, newOrg, type TestOrg } from './factories/admin';

/**
 * Test mode: `ck_test_…` keys and dashboard sessions with `?mode=test`. A test certificate spends no credit (no ledger
 * row), says TEST on its page and documents, verifies as `test` (never `valid`), has no signed credential, and is seen
 * only in test mode (live lists, reads and revokes never find it, and the reverse).
 */
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const balanceOf = async (org: TestOrg) => (await ctx.db('organizations').where({ id: org.org }).first())?.balance as number;
const ledgerOf = async (org: TestOrg) => ctx.db('credit_ledger').where({ organization_id: org.org }).orderBy('id').select('delta', 'reason', 'reference');

async function createTestKey(org: TestOrg) {
  const res = await app().post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'staging', mode: 'test' }).expect(201);
  return res.body as { id: string; token: string; livemode: boolean; token_hint: string };
}

async function issueTestCertificate(org: TestOrg, overrides: Record<string, unknown> = {}) {
  const res = await app().post('/admin/v1/certificates?mode=test').set('Authorization', org.admin()).send(certificateInput(overrides));
  expect(res.status).toBe(201);
  return res.body as { id: string; verification_code: string; livemode: boolean; status: string };
}

describe('test-mode API keys', () => {
  it('creates a ck_test_ key on mode: test, which authenticates and answers credits as the live balance with livemode false', async () => {
    const org = newOrg(ctx);
    const live = await createApiKey(ctx, org);
    const test = await createTestKey(org);
    expect(test.token).toMatch(/^ck_test_[0-9A-Za-z]{36}$/);
    expect(test.livemode).toBe(false);
    expect(test.token_hint.startsWith('ck_test')).toBe(true);

    const asLive = await app().get('/api/v1/credits').set('Authorization', `Bearer ${live.token}`).expect(200);
    const asTest = await app().get('/api/v1/credits').set('Authorization', `Bearer ${test.token}`).expect(200);
    expectToMatchRouteTable(asTest);
    expect(asLive.body).toMatchObject({ balance: 10, livemode: true });
    expect(asTest.body).toEqual({ ...asLive.body, livemode: false });
  });

  it('refuses a ck_test_ token whose checksum is wrong (401)', async () => {
    const org = newOrg(ctx);
    const { token } = await createTestKey(org);
    const broken = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    expect((await app().get('/api/v1/credits').set('Authorization', `Bearer ${broken}`)).status).toBe(401);
  });
});

describe('test certificates', () => {
  it('issues with ?mode=test: 201 livemode false, no credit spent and no ledger row', async () => {
    const org = newOrg(ctx);
    await issueCertificate(ctx, org); // a live one first: one credit, one ledger row
    const ledgerBefore = await ledgerOf(org);
    const before = await balanceOf(org);
    const res = await app().post('/admin/v1/certificates?mode=test').set('Authorization', org.admin()).send(certificateInput()).expect(201);
    expectToMatchRouteTable(res);
    expect(res.body).toMatchObject({ livemode: false, status: 'valid' });
    expect(await balanceOf(org)).toBe(before);
    expect(await ledgerOf(org)).toEqual(ledgerBefore);
    expect(ledgerBefore.map((row) => row.reference)).not.toContain(res.body.id);
  });

  it('issues a CSV batch in test mode without spending, even past the balance', async () => {
    const org = newOrg(ctx);
    const rows = Array.from({ length: 12 }, (_, i) => `Recipient ${i},Analytical Engines 101,2026-05-01`);
    const res = await app()
      .post('/admin/v1/certificates/batch?mode=test')
      .set('Authorization', org.admin())
      .set('Content-Type', 'text/csv')
      .send(['recipient_name,program_title,issue_date', ...rows].join('\n'))
      .expect(201);
    expect(res.body.data).toHaveLength(12);
    expect(res.body.data.every((certificate: { livemode: boolean }) => certificate.livemode === false)).toBe(true);
    expect(await balanceOf(org)).toBe(10);
    expect((await ledgerOf(org)).filter((row) => row.reason === 'certificate_issued')).toEqual([]);
  });

  it('verifies as test, never valid, with a live or a test key, and by code on the verifier', async () => {
    const org = newOrg(ctx);
    const live = await createApiKey(ctx, org);
    const test = await createTestKey(org);
    const certificate = await issueTestCertificate(org);
    for (const token of [live.token, test.token]) {
      const res = await app().get(`/api/v1/verify/${certificate.verification_code}`).set('Authorization', `Bearer ${token}`).expect(200);
      expectToMatchRouteTable(res);
      expect(res.body).toMatchObject({ valid: false, certificate_status: 'test', reason: expect.stringContaining('test mode') });
    }
    const byCode = await app().post('/credentials/verify').send({ code: certificate.verification_code }).expect(200);
    expect(byCode.body).toMatchObject({ status: 'test', valid: false, reason: expect.stringContaining('test mode') });
  });

  it('shows a TEST mark on its public page and documents, and has no verifiable credential (404)', async () => {
    const org = newOrg(ctx);
    const { verification_code: code } = await issueTestCertificate(org);

    const page = await app().get(`/credentials/${code}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Test certificate — not a real credential');
    expect(page.text).toContain('data-status="test"');
    expect(page.text).toMatch(/<title>TEST – /);
    expect(page.text).not.toContain('credential.json');
    expect(page.text).not.toContain('id="share"');

    const json = await app().get(`/credentials/${code}`).set('Accept', 'application/json').expect(200);
    expectToMatchRouteTable(json);
    expect(json.body).toMatchObject({ status: 'test', valid: false });

    expect((await app().get(`/credentials/${code}/credential.json`)).status).toBe(404);
    expect((await app().get(`/credentials/${code}`).set('Accept', 'application/vc+jwt')).status).toBe(404);

    const pdf = await app().get(`/credentials/${code}/document.pdf`).buffer(true).parse(binary).expect(200);
    const text = await pdfText(pdf.body as Buffer);
    expect(text).toContain('TEST');
    expect(text).toContain('Test certificate — not a real credential');
  });

  it('is listed, read and revoked only in test mode, and live certificates only in live mode', async () => {
    const org = newOrg(ctx);
    const live = await issueCertificate(ctx, org);
    const test = await issueTestCertificate(org);
    const admin = org.admin('member', `member_${org.org}`);

    const liveList = await app().get('/admin/v1/certificates').set('Authorization', admin).expect(200);
    expect(liveList.body.data.map((c: { id: string }) => c.id)).toEqual([live.id]);
    const testList = await app().get('/admin/v1/certificates?mode=test').set('Authorization', admin).expect(200);
    expectToMatchRouteTable(testList);
    expect(testList.body.data.map((c: { id: string }) => c.id)).toEqual([test.id]);
    expect((await app().get('/admin/v1/certificates?livemode=false').set('Authorization', admin).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([test.id]);

    await app().get(`/admin/v1/certificates/${test.id}`).set('Authorization', admin).expect(404);
    await app().get(`/admin/v1/certificates/${live.id}?mode=test`).set('Authorization', admin).expect(404);
    await app().get(`/admin/v1/certificates/${test.id}?mode=test`).set('Authorization', admin).expect(200);

    await app().post(`/admin/v1/certificates/${test.id}/revoke`).set('Authorization', admin).expect(404);
    await app().post(`/admin/v1/certificates/${live.id}/revoke?mode=test`).set('Authorization', admin).expect(404);
    expect((await ctx.db('certificates').whereIn('id', [live.id, test.id]).pluck('status')).sort()).toEqual(['valid', 'valid']);
    const revoked = await app().post(`/admin/v1/certificates/${test.id}/revoke?mode=test`).set('Authorization', admin).expect(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', livemode: false });
  });

  it('refuses disagreeing mode parameters with 422', async () => {
    const org = newOrg(ctx);
    const res = await app().get('/admin/v1/certificates?mode=test&livemode=true').set('Authorization', org.admin()).expect(422);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'mode' })]);
  });

  it('counts test certificates apart on the summary', async () => {
    const org = newOrg(ctx);
    await issueCertificate(ctx, org);
    await issueTestCertificate(org);
    await issueTestCertificate(org);
    const live = await app().get('/admin/v1/summary').set('Authorization', org.admin()).expect(200);
    const test = await app().get('/admin/v1/summary?mode=test').set('Authorization', org.admin()).expect(200);
    expect([live.body.certificates_issued, live.body.credits_used_this_month]).toEqual([1, 1]);
    expect([test.body.certificates_issued, test.body.credits_used_this_month]).toEqual([2, 0]);
  });
});
