import { createServer } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createMetrics } from '@platform/service-kit/metrics';
import { comparableHeaders, comparableLine, runFastLaneParity, type ParityCase } from '@platform/test-kit';
import { createApp } from '../src/app';
import { rideCreationFastLane } from '../src/features/rides/rides.fast-lane';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('the ride creation fast lane', () => {
  it('answers exactly as the Express app does, creates one ride per answer, and leaves every other request to it', async () => {
    const centre = randomCentre();
    const key = await createPartnerKey(ctx);
    const testKey = await createPartnerKey(ctx, { owner: key.owner, mode: 'test' });
    const readKey = await createPartnerKey(ctx, { owner: key.owner, scopes: ['rides:read'] });
    const ride = JSON.stringify(rideBody(centre));
    const json = { 'Content-Type': 'application/json' };
    const bearer = { ...json, Authorization: `Bearer ${key.token}` };
    const post = (name: string, headers: Record<string, string>, body: string | undefined, fast: boolean, path = '/api/v1/rides'): ParityCase => ({ name, method: 'POST', path, headers, body, fast });

    const cases: ParityCase[] = [
      post('a ride', bearer, ride, true),
      post('X-API-KEY instead of Bearer', { ...json, 'X-API-KEY': key.token }, ride, true),
      post('charset given', { ...bearer, 'Content-Type': 'application/json; charset=UTF-8' }, ride, true),
      post('test-mode key', { ...json, Authorization: `Bearer ${testKey.token}` }, ride, true),
      post('null address', bearer, JSON.stringify(rideBody(centre, { dropoff: { ...offset(centre, 2000, 0), address: null } })), true),
      post('missing key', json, ride, false),
      post('key without rides:write', { ...json, Authorization: `Bearer ${readKey.token}` }, ride, false),
      post('bad JSON', bearer, '{"pickup": ', false),
      post('unknown tier', bearer, JSON.stringify(rideBody(centre, { tier: 'rocket' })), false),
      post('a control character in a name', bearer, JSON.stringify(rideBody(centre, { passenger: { name: 'Ada\u0007', phone: '+234 802 000 0000' } })), false),
      post('an unknown estimate', bearer, JSON.stringify(rideBody(centre, { estimate_id: 'est_doesnotexist' })), false),
      post('text/plain', { ...bearer, 'Content-Type': 'text/plain' }, ride, false),
      post('trailing slash', bearer, ride, false, '/api/v1/rides/'),
    ];

    const { partner_id: partnerId } = (await ctx.db('api_keys').where({ id: key.keyId }).first('partner_id')) as { partner_id: string };
    const ridesOfPartner = async () => Number((await ctx.db('rides').where({ partner_id: partnerId }).count({ n: '*' }))[0]!.n);
    const ridesBefore = await ridesOfPartner();
    const run = await runFastLaneParity(
      'mobility',
      (logger, metrics) => createApp({ db: ctx.db, redis: ctx.redis, config: ctx.config, logger, metrics }, ctx.services),
      (deps, app) => rideCreationFastLane({ ...deps, apiKeys: ctx.services.apiKeys, rides: ctx.services.rides }, app),
      cases,
    );
    let created = 0;
    for (const { label, testCase, plain, lane, reachedExpress } of run.observations) {
      if (plain.status === 201) created += 2;
      expect({ label, status: lane.status, body: comparableBody(lane.text) }).toEqual({ label, status: plain.status, body: comparableBody(plain.text) });
      expect({ label, headers: comparableHeaders(lane, testCase, ['content-length']) }).toEqual({ label, headers: comparableHeaders(plain, testCase, ['content-length']) });
      expect({ label, line: comparableLine(lane, testCase) }).toEqual({ label, line: comparableLine(plain, testCase) });
      expect({ label, reachedExpress }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    // The five fast cases and the trailing slash's (the same route), in each server; test-mode rides included.
    expect(created).toBe(12);
    expect((await ridesOfPartner()) - ridesBefore).toBe(created);
    expect(run.requestCounts.lane).toEqual(run.requestCounts.plain);
    expect(run.requestCounts.lane).toContainEqual(expect.stringContaining('route="/api/v1/rides",status="201"'));
  });

  it('starts the search of what it creates, and leaves a request with an Idempotency-Key to Express and its replays', async () => {
    const centre = randomCentre();
    const driver = await onlineDriver(ctx, offset(centre, 300, 0));
    const key = await createPartnerKey(ctx);
    let expressRequests = 0;
    const lane = rideCreationFastLane({ apiKeys: ctx.services.apiKeys, rides: ctx.services.rides, logger: pino({ level: 'silent' }), metrics: createMetrics('mobility') }, (req, res) => {
      expressRequests += 1;
      ctx.app(req, res);
    });
    const server = createServer(lane);
    const created = await request(server).post('/api/v1/rides').set('Authorization', `Bearer ${key.token}`).send(rideBody(centre)).expect(201);
    expect(expressRequests).toBe(0);
    const offers = await driver.app.offers();
    expect(offers.map((offer) => offer.ride_id)).toEqual([created.body.id]);

    const body = rideBody(randomCentre());
    const idempotent = () => request(server).post('/api/v1/rides').set('Authorization', `Bearer ${key.token}`).set('Idempotency-Key', `lane-${created.body.id}`).send(body);
    const first = await idempotent().expect(201);
    const again = await idempotent().expect(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(expressRequests).toBe(2);
  });
});

/** The answer without what differs from call to call: the new ride's id and timestamps. */
function comparableBody(text: string): unknown {
  if (text === '') return text;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (typeof body.id === 'string') {
    expect(body.id).toMatch(/^ride_/);
    body.id = 'ride_…';
  }
  for (const field of ['created_at', 'updated_at'] as const) if (typeof body[field] === 'string') body[field] = field;
  return body;
}
