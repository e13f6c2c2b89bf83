import { createServer, type RequestListener } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger, createMetrics, type Metrics } from '@platform/service-kit';
import { createApp } from '../src/app';
import { estimatesFastLane } from '../src/features/estimates/estimates.fast-lane';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { offset, onlineDriver, randomCentre } from './factories/fleet';

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
  const server = createServer(
    withFastLane ? estimatesFastLane({ apiKeys: ctx.services.apiKeys, estimates: ctx.services.estimates, logger, metrics }, countingApp) : countingApp,
  );
  return { server, lines, metrics, expressRequests: () => expressRequests };
}

type Served = ReturnType<typeof served>;

async function logLineCount(target: Served, count: number): Promise<void> {
  while (target.lines.filter((line) => line.msg === 'request').length < count) await new Promise((resolve) => setImmediate(resolve));
}

interface Case {
  name: string;
  method?: 'get' | 'post';
  path?: string;
  headers?: Record<string, string>;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  /** Whether the fast lane answers it itself (otherwise Express does, in both servers). */
  fast: boolean;
}

describe('the estimates fast lane', () => {
  it('answers exactly as the Express app does, stores one estimate per answer, and leaves every other request to it', async () => {
    const centre = randomCentre();
    await onlineDriver(ctx, offset(centre, 300, 200));
    const key = await createPartnerKey(ctx);
    const testKey = await createPartnerKey(ctx, { owner: key.owner, mode: 'test' });
    const narrowKey = await createPartnerKey(ctx, { owner: key.owner, scopes: ['rides:read'] });
    const trip = JSON.stringify({ pickup: centre, dropoff: offset(centre, 4000, 3000) });
    const json = { 'Content-Type': 'application/json' };
    const bearer = { ...json, Authorization: `Bearer ${key.token}` };

    const cases: Case[] = [
      { name: 'an estimate', headers: bearer, body: trip, fast: true },
      { name: 'X-API-KEY instead of Bearer', headers: { ...json, 'X-API-KEY': key.token }, body: trip, fast: true },
      { name: 'charset given', headers: { ...bearer, 'Content-Type': 'application/json; charset=UTF-8' }, body: trip, fast: true },
      { name: 'X-Request-Id given', headers: { ...bearer, 'X-Request-Id': 'partner-req-7' }, body: trip, fast: true },
      { name: 'unusable X-Request-Id replaced', headers: { ...bearer, 'X-Request-Id': 'no spaces allowed' }, body: trip, fast: true },
      { name: 'test-mode key', headers: { ...json, Authorization: `Bearer ${testKey.token}` }, body: trip, fast: true },
      { name: 'leading whitespace and a byte-order mark', headers: bearer, body: `\uFEFF \n${trip}`, fast: true },
      { name: 'missing key', headers: json, body: trip, fast: false },
      { name: 'unknown key', headers: { ...json, Authorization: 'Bearer mk_notarealkeyatall' }, body: trip, fast: false },
      { name: 'key without estimates:read', headers: { ...json, Authorization: `Bearer ${narrowKey.token}` }, body: trip, fast: false },
      { name: 'bad JSON', headers: bearer, body: '{"pickup": ', fast: false },
      { name: 'a JSON string, not an object', headers: bearer, body: '"trip"', fast: false },
      { name: 'missing dropoff', headers: bearer, body: JSON.stringify({ pickup: centre }), fast: false },
      { name: 'latitude out of range', headers: bearer, body: JSON.stringify({ pickup: { lat: 91, lng: 0 }, dropoff: centre }), fast: false },
      { name: 'trip over the limit', headers: bearer, body: JSON.stringify({ pickup: centre, dropoff: offset(centre, 900_000, 0) }), fast: false },
      { name: 'text/plain', headers: { ...bearer, 'Content-Type': 'text/plain' }, body: trip, fast: false },
      { name: 'query string', path: '/api/v1/estimates?x=1', headers: bearer, body: trip, fast: false },
      { name: 'GET', method: 'get', headers: bearer, fast: false },
    ];

    const plain = served(false);
    const fast = served(true);
    const estimatesBefore = Number((await ctx.db('estimates').count({ n: '*' }))[0]!.n);
    let stored = 0;
    for (const [index, testCase] of cases.entries()) {
      const send = (target: Served) => {
        const call = request(target.server)[testCase.method ?? 'post'](testCase.path ?? '/api/v1/estimates').set(testCase.headers ?? {});
        return testCase.body === undefined ? call : call.send(testCase.body as string);
      };
      const fastBefore = fast.expressRequests();
      const expected = await send(plain);
      const actual = await send(fast);
      if (expected.status === 200) stored += 2;
      await logLineCount(plain, index + 1);
      await logLineCount(fast, index + 1);
      const label = `${testCase.name}: ${testCase.method ?? 'post'} ${testCase.path ?? '/api/v1/estimates'}`;
      expect({ label, status: actual.status, body: comparableBody(actual.text) }).toEqual({ label, status: expected.status, body: comparableBody(expected.text) });
      const generatedId = !testCase.headers?.['X-Request-Id'] || testCase.headers['X-Request-Id'].includes(' ');
      expect({ label, headers: comparableHeaders(actual.headers, generatedId) }).toEqual({ label, headers: comparableHeaders(expected.headers, generatedId) });
      const expectedLine = plain.lines.filter((line) => line.msg === 'request')[index]!;
      const actualLine = fast.lines.filter((line) => line.msg === 'request')[index]!;
      expect(actualLine.request_id).toBe(actual.headers['x-request-id']);
      expect({ label, line: comparableLine(actualLine, generatedId) }).toEqual({ label, line: comparableLine(expectedLine, generatedId) });
      expect({ label, reachedExpress: fast.expressRequests() > fastBefore }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    expect(stored).toBe(16); // the seven fast cases and the query string's, in each server
    expect(Number((await ctx.db('estimates').count({ n: '*' }))[0]!.n) - estimatesBefore).toBe(stored);
    const counts = async (metrics: Metrics) =>
      (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count')).sort();
    expect(await counts(fast.metrics)).toEqual(await counts(plain.metrics));
    expect(await counts(fast.metrics)).toContainEqual(expect.stringContaining('route="/api/v1/estimates/",status="200"'));
  });

  it('stores what it answers: the estimate it returns is the row a ride can be booked on', async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    const fast = served(true);
    const res = await request(fast.server)
      .post('/api/v1/estimates')
      .set('Authorization', `Bearer ${key.token}`)
      .send({ pickup: centre, dropoff: offset(centre, 2000, 0) })
      .expect(200);
    expect(fast.expressRequests()).toBe(0);
    const row = await ctx.db('estimates').where({ id: res.body.id }).first();
    expect(row).toMatchObject({ distance_meters: res.body.distance_meters, pickup_lat: centre.lat, pickup_lng: centre.lng });
    expect(Object.keys(row.fares).sort()).toEqual(['comfort', 'economy', 'moto', 'xl']);
  });
});

/** The answer without what differs from call to call: the new estimate's id and expiry. */
function comparableBody(text: string): unknown {
  const body = JSON.parse(text) as Record<string, unknown>;
  if (typeof body.id === 'string') {
    expect(body.id).toMatch(/^est_/);
    body.id = 'est_…';
  }
  if (typeof body.expires_at === 'string') body.expires_at = 'expiry';
  return body;
}

function comparableHeaders(headers: Record<string, string>, generatedId: boolean): Record<string, string> {
  const { date: _date, 'content-length': _length, ...rest } = headers;
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
