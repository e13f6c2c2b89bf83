import { createServer, type RequestListener } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger, createMetrics, type Metrics } from '@platform/service-kit';
import { createApp } from '../src/app';
import { publicApiFastLane } from '../src/features/verification/public-api.fast-lane';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, issueCertificate, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/** One way of serving the app: its own logger (lines kept), metrics and a count of requests that reached Express. */
function served(withFastLane: boolean) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('certificate', 'info', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  const metrics: Metrics = createMetrics('certificate');
  const app = createApp({ db: ctx.db, config: ctx.config, logger, metrics }, ctx.services);
  let expressRequests = 0;
  const countingApp: RequestListener = (req, res) => {
    expressRequests += 1;
    app(req, res);
  };
  const server = createServer(withFastLane ? publicApiFastLane({ apiKeys: ctx.services.apiKeys, publicApi: ctx.services.publicApi, logger, metrics }, countingApp) : countingApp);
  return { server, lines, metrics, expressRequests: () => expressRequests };
}

type Served = ReturnType<typeof served>;

async function logLineCount(target: Served, count: number): Promise<void> {
  while (target.lines.filter((line) => line.msg === 'request').length < count) await new Promise((resolve) => setImmediate(resolve));
}

interface Case {
  name: string;
  method?: 'get' | 'head' | 'post';
  path: string;
  headers?: Record<string, string>;
  /** Whether the fast lane answers it itself (otherwise Express does, in both servers). */
  fast: boolean;
}

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

    const cases: Case[] = [
      { name: 'valid verify', path: `/api/v1/verify/${code}`, headers: auth, fast: true },
      { name: 'lower-case, dashed code', path: `/api/v1/verify/${code.toLowerCase()}`, headers: auth, fast: true },
      { name: 'code without dashes', path: `/api/v1/verify/${code.replace(/-/g, '')}`, headers: auth, fast: true },
      { name: 'If-None-Match hit', path: `/api/v1/verify/${code}`, headers: { ...auth, 'If-None-Match': etag }, fast: true },
      { name: 'If-None-Match weak hit in a list', path: `/api/v1/verify/${code}`, headers: { ...auth, 'If-None-Match': `"x", W/${etag}` }, fast: true },
      { name: 'If-None-Match miss', path: `/api/v1/verify/${code}`, headers: { ...auth, 'If-None-Match': '"stale"' }, fast: true },
      { name: 'X-Request-Id given', path: `/api/v1/verify/${code}`, headers: { ...auth, 'X-Request-Id': 'partner-req-42' }, fast: true },
      { name: 'unusable X-Request-Id replaced', path: `/api/v1/verify/${code}`, headers: { ...auth, 'X-Request-Id': 'no spaces allowed' }, fast: true },
      { name: 'credits', path: '/api/v1/credits', headers: auth, fast: true },
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
      { name: 'HEAD', method: 'head', path: `/api/v1/verify/${code}`, headers: auth, fast: false },
      { name: 'POST', method: 'post', path: `/api/v1/verify/${code}`, headers: auth, fast: false },
      { name: 'query string', path: `/api/v1/verify/${code}?expand=all`, headers: auth, fast: false },
      { name: 'query string, credits', path: '/api/v1/credits?x=1', headers: auth, fast: false },
      { name: 'trailing slash', path: `/api/v1/verify/${code}/`, headers: auth, fast: false },
      { name: 'trailing slash, credits', path: '/api/v1/credits/', headers: auth, fast: false },
      { name: 'upper-case path', path: `/API/V1/VERIFY/${code}`, headers: auth, fast: false },
      { name: 'empty code', path: '/api/v1/verify/', headers: auth, fast: false },
    ];

    const plain = served(false);
    const fast = served(true);
    for (const [index, testCase] of cases.entries()) {
      const send = (target: Served) => request(target.server)[testCase.method ?? 'get'](testCase.path).set(testCase.headers ?? {});
      const fastBefore = fast.expressRequests();
      const expected = await send(plain);
      const actual = await send(fast);
      await logLineCount(plain, index + 1);
      await logLineCount(fast, index + 1);
      const label = `${testCase.name}: ${testCase.method ?? 'get'} ${testCase.path}`;
      expect({ label, status: actual.status, body: actual.text }).toEqual({ label, status: expected.status, body: expected.text });
      const generatedId = !testCase.headers?.['X-Request-Id'] || testCase.headers['X-Request-Id'].includes(' ');
      expect({ label, headers: comparableHeaders(actual.headers, generatedId) }).toEqual({ label, headers: comparableHeaders(expected.headers, generatedId) });
      expect(actual.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]+$/);
      const expectedLine = plain.lines.filter((line) => line.msg === 'request')[index]!;
      const actualLine = fast.lines.filter((line) => line.msg === 'request')[index]!;
      expect(actualLine.request_id).toBe(actual.headers['x-request-id']);
      expect({ label, line: comparableLine(actualLine, generatedId) }).toEqual({ label, line: comparableLine(expectedLine, generatedId) });
      expect({ label, reachedExpress: fast.expressRequests() > fastBefore }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    // Every request was counted under the same route and status in both servers' metrics.
    const counts = async (metrics: Metrics) =>
      (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count')).sort();
    expect(await counts(fast.metrics)).toEqual(await counts(plain.metrics));
    expect(await counts(fast.metrics)).toContainEqual(expect.stringContaining('route="/api/v1/verify/:code",status="200"'));
  });
});

function comparableHeaders(headers: Record<string, string>, generatedId: boolean): Record<string, string> {
  const { date: _date, ...rest } = headers;
  if (generatedId) delete rest['x-request-id'];
  return rest;
}

/** The line without what differs from run to run: time, duration, process fields, the new trace id and a generated request id. */
function comparableLine(line: Record<string, unknown>, generatedId: boolean): Record<string, unknown> {
  const { time: _time, duration_ms: duration, trace_id: traceId, pid: _pid, hostname: _hostname, ...rest } = line;
  expect(typeof duration).toBe('number');
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  if (generatedId) delete rest.request_id;
  return rest;
}
