import { createServer } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createMetrics } from '@platform/service-kit/metrics';
import { comparableHeaders, comparableLine, runFastLaneParity, type ParityCase } from '@platform/test-kit';
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
    const post = (name: string, headers: Record<string, string>, body: string | undefined, fast: boolean, path = '/api/v1/estimates'): ParityCase => ({ name, method: 'POST', path, headers, body, fast });

    const cases: ParityCase[] = [
      post('an estimate', bearer, trip, true),
      post('X-API-KEY instead of Bearer', { ...json, 'X-API-KEY': key.token }, trip, true),
      post('charset given', { ...bearer, 'Content-Type': 'application/json; charset=UTF-8' }, trip, true),
      post('X-Request-Id given', { ...bearer, 'X-Request-Id': 'partner-req-7' }, trip, true),
      post('unusable X-Request-Id replaced', { ...bearer, 'X-Request-Id': 'no spaces allowed' }, trip, true),
      post('test-mode key', { ...json, Authorization: `Bearer ${testKey.token}` }, trip, true),
      post('leading whitespace and a byte-order mark', bearer, `\uFEFF \n${trip}`, true),
      post('missing key', json, trip, false),
      post('unknown key', { ...json, Authorization: 'Bearer mk_notarealkeyatall' }, trip, false),
      post('key without estimates:read', { ...json, Authorization: `Bearer ${narrowKey.token}` }, trip, false),
      post('bad JSON', bearer, '{"pickup": ', false),
      post('a JSON string, not an object', bearer, '"trip"', false),
      post('missing dropoff', bearer, JSON.stringify({ pickup: centre }), false),
      post('latitude out of range', bearer, JSON.stringify({ pickup: { lat: 91, lng: 0 }, dropoff: centre }), false),
      post('trip over the limit', bearer, JSON.stringify({ pickup: centre, dropoff: offset(centre, 900_000, 0) }), false),
      post('text/plain', { ...bearer, 'Content-Type': 'text/plain' }, trip, false),
      post('no body', bearer, undefined, false),
      post('query string', bearer, trip, false, '/api/v1/estimates?x=1'),
      post('trailing slash', bearer, trip, false, '/api/v1/estimates/'),
      { name: 'GET', path: '/api/v1/estimates', headers: bearer, fast: false },
    ];

    // Only this partner's rows: other test files insert estimates into the same database meanwhile.
    const { partner_id: partnerId } = (await ctx.db('api_keys').where({ id: key.keyId }).first('partner_id')) as { partner_id: string };
    const estimatesOfPartner = async () => Number((await ctx.db('estimates').where({ partner_id: partnerId }).count({ n: '*' }))[0]!.n);
    const estimatesBefore = await estimatesOfPartner();
    const run = await runFastLaneParity(
      'mobility',
      (logger, metrics) => createApp({ db: ctx.db, redis: ctx.redis, config: ctx.config, logger, metrics }, ctx.services),
      (deps, app) => estimatesFastLane({ ...deps, apiKeys: ctx.services.apiKeys, estimates: ctx.services.estimates }, app),
      cases,
    );
    let answered = 0;
    for (const { label, testCase, plain, lane, reachedExpress } of run.observations) {
      if (plain.status === 200) answered += 2;
      expect({ label, status: lane.status, body: comparableBody(lane.text) }).toEqual({ label, status: plain.status, body: comparableBody(plain.text) });
      expect({ label, headers: comparableHeaders(lane, testCase, ['content-length']) }).toEqual({ label, headers: comparableHeaders(plain, testCase, ['content-length']) });
      expect({ label, line: comparableLine(lane, testCase) }).toEqual({ label, line: comparableLine(plain, testCase) });
      expect({ label, reachedExpress }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    // The seven fast cases, the query string's and the trailing slash's, in each server: one row per 200.
    expect(answered).toBe(18);
    expect((await estimatesOfPartner()) - estimatesBefore).toBe(answered);
    expect(run.requestCounts.lane).toEqual(run.requestCounts.plain);
    expect(run.requestCounts.lane).toContainEqual(expect.stringContaining('route="/api/v1/estimates",status="200"'));
  });

  it('stores what it answers: the estimate it returns is the row a ride can be booked on', async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    let expressRequests = 0;
    const lane = estimatesFastLane({ apiKeys: ctx.services.apiKeys, estimates: ctx.services.estimates, logger: pino({ level: 'silent' }), metrics: createMetrics('mobility') }, (req, res) => {
      expressRequests += 1;
      ctx.app(req, res);
    });
    const res = await request(createServer(lane))
      .post('/api/v1/estimates')
      .set('Authorization', `Bearer ${key.token}`)
      .send({ pickup: centre, dropoff: offset(centre, 2000, 0) })
      .expect(200);
    expect(expressRequests).toBe(0);
    const row = await ctx.db('estimates').where({ id: res.body.id }).first();
    expect(row).toMatchObject({ distance_meters: res.body.distance_meters, pickup_lat: centre.lat, pickup_lng: centre.lng });
    expect(Object.keys(row.fares).sort()).toEqual(['comfort', 'economy', 'moto', 'xl']);
  });
});

/** The answer without what differs from call to call: the new estimate's id and expiry. */
function comparableBody(text: string): unknown {
  if (text === '') return text;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (typeof body.id === 'string') {
    expect(body.id).toMatch(/^est_/);
    body.id = 'est_…';
  }
  if (typeof body.expires_at === 'string') body.expires_at = 'expiry';
  return body;
}
