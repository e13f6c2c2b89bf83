import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, issueCertificate, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const NOT_FOUND = {
  type: 'https://docs.partner-platform.example/errors/not_found',
  title: 'Not Found',
  status: 404,
  detail: 'Certificate not found',
  valid: false,
  error: 'Certificate not found',
  code: 'not_found',
};

async function orgWithKey() {
  const org = newOrg(ctx);
  const key = await createApiKey(ctx, org);
  const verify = (code: string) => request(ctx.app).get(`/api/v1/verify/${code}`).set('Authorization', `Bearer ${key.token}`).set('Accept', 'application/json');
  return { org, key, verify };
}

describe('GET /api/v1/verify/{code}', () => {
  it('tags the answer with an ETag and answers If-None-Match with 304 until the certificate changes', async () => {
    const { org, verify } = await orgWithKey();
    const cert = await issueCertificate(ctx, org);
    const first = await verify(cert.verification_code).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const unchanged = await verify(cert.verification_code).set('If-None-Match', etag).expect(304);
    expect(unchanged.text).toBe('');
    await request(ctx.app).post(`/admin/v1/certificates/${cert.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const revoked = await verify(cert.verification_code).set('If-None-Match', etag).expect(200);
    expect(revoked.body.certificate_status).toBe('revoked');
    expect(revoked.headers.etag).not.toBe(etag);
  });

  it('answers an unknown code as a Problem Details 404 that keeps valid: false', async () => {
    const { verify } = await orgWithKey();
    const res = await verify('AAAAAA-BBBBBB-CCCCCC').expect(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('returns the verification fields for a certificate of the key’s organization', async () => {
    const { org, verify } = await orgWithKey();
    const cert = await issueCertificate(ctx, org, { certificate_number: 'AE-2026-0001', issue_date: '2026-02-28' });
    expect(cert.verification_code).toMatch(/^[2-9A-HJKMNP-Z]{6}-[2-9A-HJKMNP-Z]{6}-[2-9A-HJKMNP-Z]{6}$/);
    const res = await verify(cert.verification_code).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({
      valid: true,
      recipient_name: 'Ada Lovelace',
      program_title: 'Analytical Engines 101',
      organization_name: org.orgName,
      issue_date: '2026-02-28',
      certificate_number: 'AE-2026-0001',
      certificate_status: 'valid',
    });
  });

  it('accepts the code in lower case and without dashes, as people type it', async () => {
    const { org, verify } = await orgWithKey();
    const cert = await issueCertificate(ctx, org);
    await verify(cert.verification_code.toLowerCase()).expect(200);
    await verify(cert.verification_code.replace(/-/g, '')).expect(200);
  });

  it("answers a code of another organization exactly like a code that exists nowhere", async () => {
    const theirs = await orgWithKey();
    const cert = await issueCertificate(ctx, theirs.org);
    const mine = await orgWithKey();
    const foreign = await mine.verify(cert.verification_code).expect(404);
    const missing = await mine.verify('ABCDEF-GHJKMN-PQRSTU').expect(404);
    expect(foreign.body).toEqual(NOT_FOUND);
    expect(missing.body).toEqual(NOT_FOUND);
    expect(Object.keys(foreign.headers).sort()).toEqual(Object.keys(missing.headers).sort());
    await theirs.verify(cert.verification_code).expect(200);
  });

  it('reports revoked and expired certificates as not valid, with their status', async () => {
    const { org, verify } = await orgWithKey();
    const revoked = await issueCertificate(ctx, org);
    await request(ctx.app).post(`/admin/v1/certificates/${revoked.id}/revoke`).set('Authorization', org.admin()).expect(200);
    expect((await verify(revoked.verification_code).expect(200)).body).toMatchObject({ valid: false, certificate_status: 'revoked' });
    const expired = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-01-01' });
    expect((await verify(expired.verification_code).expect(200)).body).toMatchObject({ valid: false, certificate_status: 'expired' });
    const current = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2999-12-31' });
    expect((await verify(current.verification_code).expect(200)).body).toMatchObject({ valid: true, certificate_status: 'valid' });
  });

  it.each([
    ['a malformed code', 'not-a-code'],
    ['a 10 kB code', 'A'.repeat(10 * 1024)],
    ['an SQL-looking code', encodeURIComponent("' OR '1'='1")],
    ['a code with a percent sign', '%25%25'],
    ['unicode', encodeURIComponent('ÄÖÜ-☃')],
  ])('answers %s with the JSON 404, never a 500', async (_label, code) => {
    const { verify } = await orgWithKey();
    const res = await verify(code).expect(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('checks the key before the code: a bad key is 401 even for a real code', async () => {
    const { org } = await orgWithKey();
    const cert = await issueCertificate(ctx, org);
    const res = await request(ctx.app).get(`/api/v1/verify/${cert.verification_code}`).expect(401);
    expect(res.body).toMatchObject({ error: 'Missing API key', code: 'missing_api_key' });
  });
});

describe('GET /api/v1/credits', () => {
  it("returns the organization's name, balance and the key user's plan", async () => {
    const { org, key } = await orgWithKey();
    const res = await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200);
    expect(res.body).toEqual({ organization: org.orgName, balance: 10, plan: 'free', livemode: true });
    await issueCertificate(ctx, org);
    const after = await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200);
    expect(after.body.balance).toBe(9);
  });

  it('records when a key was last used', async () => {
    const { key } = await orgWithKey();
    await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = await ctx.db('api_keys').where({ id: key.id }).first();
    expect(row.last_used_at).toBeInstanceOf(Date);
  });
});
