import request from 'supertest';
import { comparableHeaders, comparableLine, runFastLaneParity, type ParityCase } from '@platform/test-kit';
import { createApp } from '../src/app';
import { publicApiFastLane } from '../src/features/verification/public-api.fast-lane';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, issueCertificate, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('the public API fast lane', () => {
  it('answers exactly as the Express app does, and leaves every other request to it', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const revokedKey = await createApiKey(ctx, org, 'old key');
    await request(ctx.app).post(`/admin/v1/api-keys/${revokedKey.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const cert = await issueCertificate(ctx, org, { certificate_number: 'AE-2026-0042' });
    const code = cert.verification_code;
    const etag = (await request(ctx.app).get(`/api/v1/verify/${code}`).set('Authorization', `Bearer ${key.token}`).expect(200)).headers.etag as string;
    const auth = { Authorization: `Bearer ${key.token}` };
    const testKey = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'staging', mode: 'test' }).expect(201);
    const testAuth = { Authorization: `Bearer ${testKey.body.token}` };
    const testCertificate = await request(ctx.app).post('/admin/v1/certificates?mode=test').set('Authorization', org.admin()).send({ recipient_name: 'Ada Lovelace', program_title: 'Analytical Engines 101', issue_date: '2026-05-01' }).expect(201);

    const cases: ParityCase[] = [
      { name: 'valid verify', path: `/api/v1/verify/${code}`, headers: auth, fast: true },
      { name: 'lower-case, dashed code', path: `/api/v1/verify/${code.toLowerCase()}`, headers: auth, fast: true },
      { name: 'code without dashes', path: `/api/v1/verify/${code.replace(/-/g, '')}`, headers: auth, fast: true },
      { name: 'If-None-Match hit', path: `/api/v1/verify/${code}`, headers: { ...auth, 'If-None-Match': etag }, fast: true },
      { name: 'If-None-Match weak hit in a list', path: `/api/v1/verify/${code}`, headers: { ...auth, 'If-None-Match': `"x", W/${etag}` }, fast: true },
      { name: 'If-None-Match miss', path: `/api/v1/verify/${code}`, headers: { ...auth, 'If-None-Match': '"stale"' }, fast: true },
      { name: 'X-Request-Id given', path: `/api/v1/verify/${code}`, headers: { ...auth, 'X-Request-Id': 'partner-req-42' }, fast: true },
      { name: 'unusable X-Request-Id replaced', path: `/api/v1/verify/${code}`, headers: { ...auth, 'X-Request-Id': 'no spaces allowed' }, fast: true },
      { name: 'credits', path: '/api/v1/credits', headers: auth, fast: true },
      { name: 'credits, test key', path: '/api/v1/credits', headers: testAuth, fast: true },
      { name: 'test certificate', path: `/api/v1/verify/${testCertificate.body.verification_code}`, headers: auth, fast: true },
      { name: 'test certificate, test key', path: `/api/v1/verify/${testCertificate.body.verification_code}`, headers: testAuth, fast: true },
      { name: 'credits with X-Request-Id', path: '/api/v1/credits', headers: { ...auth, 'X-Request-Id': 'partner-req-43' }, fast: true },
      { name: 'credits with If-None-Match', path: '/api/v1/credits', headers: { ...auth, 'If-None-Match': '*' }, fast: false },
      { name: 'missing key', path: `/api/v1/verify/${code}`, fast: false },
      { name: 'missing key, credits', path: '/api/v1/credits', fast: false },
      { name: 'malformed Authorization', path: `/api/v1/verify/${code}`, headers: { Authorization: 'Basic abc' }, fast: false },
      { name: 'revoked key', path: `/api/v1/verify/${code}`, headers: { Authorization: `Bearer ${revokedKey.token}` }, fast: false },
      { name: 'unknown key', path: '/api/v1/credits', headers: { Authorization: 'Bearer sk_live_notarealkey' }, fast: false },
      { name: 'unknown code', path: '/api/v1/verify/AAAAAA-BBBBBB-CCCCCC', headers: auth, fast: false },
      { name: 'code that cannot be one of ours', path: '/api/v1/verify/nope', headers: auth, fast: false },
      { name: 'percent-encoded code', path: `/api/v1/verify/${encodeURIComponent(` ${code}`)}`, headers: auth, fast: false },
      { name: 'bad percent-encoding', path: '/api/v1/verify/%E0%A4%A', headers: auth, fast: false },
      { name: 'HEAD', method: 'HEAD', path: `/api/v1/verify/${code}`, headers: auth, fast: false },
      { name: 'POST', method: 'POST', path: `/api/v1/verify/${code}`, headers: auth, fast: false },
      { name: 'query string', path: `/api/v1/verify/${code}?expand=all`, headers: auth, fast: false },
      { name: 'query string, credits', path: '/api/v1/credits?x=1', headers: auth, fast: false },
      { name: 'trailing slash', path: `/api/v1/verify/${code}/`, headers: auth, fast: false },
      { name: 'trailing slash, credits', path: '/api/v1/credits/', headers: auth, fast: false },
      { name: 'upper-case path', path: `/API/V1/VERIFY/${code}`, headers: auth, fast: false },
      { name: 'empty code', path: '/api/v1/verify/', headers: auth, fast: false },
    ];

    const run = await runFastLaneParity(
      'certificate',
      (logger, metrics) => createApp({ db: ctx.db, config: ctx.config, logger, metrics }, ctx.services),
      (deps, app) => publicApiFastLane({ ...deps, apiKeys: ctx.services.apiKeys, publicApi: ctx.services.publicApi, organizations: ctx.services.organizationRequests }, app),
      cases,
    );
    for (const { label, testCase, plain, lane, reachedExpress } of run.observations) {
      expect({ label, status: lane.status, body: lane.text }).toEqual({ label, status: plain.status, body: plain.text });
      expect({ label, headers: comparableHeaders(lane, testCase) }).toEqual({ label, headers: comparableHeaders(plain, testCase) });
      expect(lane.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]+$/);
      expect({ label, line: comparableLine(lane, testCase) }).toEqual({ label, line: comparableLine(plain, testCase) });
      expect({ label, reachedExpress }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    // Every request was counted under the same route and status in both servers' metrics.
    expect(run.requestCounts.lane).toEqual(run.requestCounts.plain);
    expect(run.requestCounts.lane).toContainEqual(expect.stringContaining('route="/api/v1/verify/:code",status="200"'));
  });
});

