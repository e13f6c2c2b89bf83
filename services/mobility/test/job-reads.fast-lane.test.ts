import { createServer, type RequestListener } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger, createMetrics, type Metrics } from '@platform/service-kit';
import { createApp } from '../src/app';
import { jobReadsFastLane, partnerJobReads } from '../src/features/jobs/job-reads.fast-lane';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/** One way of serving the app: its own logger (lines kept), metrics and a count of requests that reached Express. */
function served(withFastLane: boolean) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('mobility', 'info', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  const metrics: Metrics = createMetrics('mobility');
  const app = createApp({ db: ctx.db, redis: ctx.redis, config: ctx.config, logger, metrics }, ctx.services);
  let expressRequests = 0;
  const countingApp: RequestListener = (req, res) => {
    expressRequests += 1;
    app(req, res);
  };
  const server = createServer(withFastLane ? jobReadsFastLane({ apiKeys: ctx.services.apiKeys, reads: partnerJobReads(ctx.services), logger, metrics }, countingApp) : countingApp);
  return { server, lines, metrics, expressRequests: () => expressRequests };
}

type Served = ReturnType<typeof served>;

async function logLineCount(target: Served, count: number): Promise<void> {
  while (target.lines.filter((line) => line.msg === 'request').length < count) await new Promise((resolve) => setImmediate(resolve));
}

interface Case {
  name: string;
  method?: 'get' | 'head';
  path: string;
  headers?: Record<string, string>;
  /** Whether the fast lane answers it itself (otherwise Express does, in both servers). */
  fast: boolean;
}

describe('the ride and delivery reads fast lane', () => {
  it('answers exactly as the Express app does, and leaves every other request to it', async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    const testKey = await createPartnerKey(ctx, { owner: key.owner, mode: 'test' });
    const narrowKey = await createPartnerKey(ctx, { owner: key.owner, scopes: ['estimates:read'] });
    const otherPartner = await createPartnerKey(ctx);
    const ride = (await partnerApi(ctx, key.token).post('/api/v1/rides', rideBody(centre)).expect(201)).body as { id: string };
    const testRide = (await partnerApi(ctx, testKey.token).post('/api/v1/rides', rideBody(centre)).expect(201)).body as { id: string };
    const delivery = (await partnerApi(ctx, key.token).post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body as { id: string };
    const auth = { Authorization: `Bearer ${key.token}` };
    const etag = (await partnerApi(ctx, key.token).get(`/api/v1/rides/${ride.id}`).expect(200)).headers.etag as string;
    const ridePath = `/api/v1/rides/${ride.id}`;

    const cases: Case[] = [
      { name: 'a ride', path: ridePath, headers: auth, fast: true },
      { name: 'X-API-KEY instead of Bearer', path: ridePath, headers: { 'X-API-KEY': key.token }, fast: true },
      { name: 'If-None-Match hit', path: ridePath, headers: { ...auth, 'If-None-Match': etag }, fast: true },
      { name: 'If-None-Match weak hit in a list', path: ridePath, headers: { ...auth, 'If-None-Match': `"x", W/${etag}` }, fast: true },
      { name: 'If-None-Match miss', path: ridePath, headers: { ...auth, 'If-None-Match': '"stale"' }, fast: true },
      { name: 'X-Request-Id given', path: ridePath, headers: { ...auth, 'X-Request-Id': 'partner-req-9' }, fast: true },
      { name: 'a delivery', path: `/api/v1/deliveries/${delivery.id}`, headers: auth, fast: true },
      { name: 'a test ride with the test key', path: `/api/v1/rides/${testRide.id}`, headers: { Authorization: `Bearer ${testKey.token}` }, fast: true },
      { name: 'missing key', path: ridePath, fast: false },
      { name: 'unknown key', path: ridePath, headers: { Authorization: 'Bearer mk_notarealkeyatall' }, fast: false },
      { name: 'key without rides:read', path: ridePath, headers: { Authorization: `Bearer ${narrowKey.token}` }, fast: false },
      { name: "another partner's ride", path: ridePath, headers: { Authorization: `Bearer ${otherPartner.token}` }, fast: false },
      { name: 'a live ride with the test key', path: ridePath, headers: { Authorization: `Bearer ${testKey.token}` }, fast: false },
      { name: 'unknown ride of the right shape', path: '/api/v1/rides/ride_00000000000000000000', headers: auth, fast: false },
      { name: 'not a ride id', path: '/api/v1/rides/nope', headers: auth, fast: false },
      { name: 'a delivery id on the rides path', path: `/api/v1/rides/${delivery.id}`, headers: auth, fast: false },
      { name: 'query string', path: `${ridePath}?expand=all`, headers: auth, fast: false },
      { name: 'If-Modified-Since', path: ridePath, headers: { ...auth, 'If-Modified-Since': new Date().toUTCString() }, fast: false },
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
      const generatedId = !testCase.headers?.['X-Request-Id'];
      expect({ label, headers: comparableHeaders(actual.headers, generatedId) }).toEqual({ label, headers: comparableHeaders(expected.headers, generatedId) });
      const expectedLine = plain.lines.filter((line) => line.msg === 'request')[index]!;
      const actualLine = fast.lines.filter((line) => line.msg === 'request')[index]!;
      expect(actualLine.request_id).toBe(actual.headers['x-request-id']);
      expect({ label, line: comparableLine(actualLine, generatedId) }).toEqual({ label, line: comparableLine(expectedLine, generatedId) });
      expect({ label, reachedExpress: fast.expressRequests() > fastBefore }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    const counts = async (metrics: Metrics) =>
      (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count')).sort();
    expect(await counts(fast.metrics)).toEqual(await counts(plain.metrics));
    expect(await counts(fast.metrics)).toContainEqual(expect.stringContaining('route="/api/v1/rides/:id",status="304"'));
    expect(await counts(fast.metrics)).toContainEqual(expect.stringContaining('route="/api/v1/deliveries/:id",status="200"'));
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
