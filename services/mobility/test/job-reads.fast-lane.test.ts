import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createDatabase } from '@platform/service-kit/db';
import { createMetrics } from '@platform/service-kit/metrics';
import { comparableHeaders, comparableLine, runDatabaseUrl, runFastLaneParity, type ParityCase } from '@platform/test-kit';
import { MOBILITY_SCHEMA } from '../src/config';
import { buildServices } from '../src/services';
import { createApp } from '../src/app';
import { jobReadsFastLane, partnerJobReads } from '../src/features/jobs/job-reads.fast-lane';
import { mobilityRouteTable } from '../src/route-table';
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

    const cases: ParityCase[] = [
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
      { name: 'trailing slash', path: `${ridePath}/`, headers: auth, fast: false },
      { name: 'If-Modified-Since', path: ridePath, headers: { ...auth, 'If-Modified-Since': new Date().toUTCString() }, fast: false },
      { name: 'HEAD', method: 'HEAD', path: ridePath, headers: auth, fast: false },
    ];

    const run = await runFastLaneParity(
      'mobility',
      (logger, metrics) => createApp({ db: ctx.db, redis: ctx.redis, config: ctx.config, logger, metrics }, ctx.services),
      (deps, app) => jobReadsFastLane({ ...deps, apiKeys: ctx.services.apiKeys, organizations: ctx.services.organizationRequests, reads: partnerJobReads(ctx.services, mobilityRouteTable) }, app),
      cases,
    );
    for (const { label, testCase, plain, lane, reachedExpress } of run.observations) {
      expect({ label, status: lane.status, body: lane.text }).toEqual({ label, status: plain.status, body: plain.text });
      expect({ label, headers: comparableHeaders(lane, testCase) }).toEqual({ label, headers: comparableHeaders(plain, testCase) });
      expect({ label, line: comparableLine(lane, testCase) }).toEqual({ label, line: comparableLine(plain, testCase) });
      expect({ label, reachedExpress }).toEqual({ label, reachedExpress: !testCase.fast });
    }
    expect(run.requestCounts.lane).toEqual(run.requestCounts.plain);
    expect(run.requestCounts.lane).toContainEqual(expect.stringContaining('route="/api/v1/rides/:id",status="304"'));
    expect(run.requestCounts.lane).toContainEqual(expect.stringContaining('route="/api/v1/deliveries/:id",status="200"'));
  });

  it('answers a read that fails with the error handler once, without reading again through Express', async () => {
    const key = await createPartnerKey(ctx);
    const ride = (await partnerApi(ctx, key.token).post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as { id: string };
    // A second set of services that waits at most 300 ms for a lock, so a locked table makes the lane's read of it fail for real
    // (the key lookup takes no lock a test holds, so only the ride read can fail).
    const impatientDb = createDatabase(runDatabaseUrl(), MOBILITY_SCHEMA, 2, { lock_timeout: '300' });
    const logger = pino({ level: 'silent' });
    const services = buildServices({ db: impatientDb, redis: ctx.redis, config: ctx.config, logger });
    // Every read of a ride, by the lane or by the Express route, is counted.
    let reads = 0;
    const getRide = services.rides.getRide;
    services.rides.getRide = (...args) => ((reads += 1), getRide(...args));
    let expressRequests = 0;
    const app = createApp({ db: impatientDb, redis: ctx.redis, config: ctx.config, logger }, services);
    const lane = jobReadsFastLane({ apiKeys: services.apiKeys, organizations: services.organizationRequests, reads: partnerJobReads(services, mobilityRouteTable), logger, metrics: createMetrics('mobility') }, (req, res) => {
      expressRequests += 1;
      app(req, res);
    });
    const locker = await ctx.db.transaction();
    try {
      await locker.raw('lock table rides in access exclusive mode');
      // Sent with fetch: a 500 is, rightly, in no route's description, and the supertest hook would refuse it.
      const server = createServer(lane).listen(0, '127.0.0.1');
      await once(server, 'listening');
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/rides/${ride.id}`, { headers: { Authorization: `Bearer ${key.token}` } });
      server.close();
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ code: 'internal_error' });
      expect({ reads, expressRequests }).toEqual({ reads: 1, expressRequests: 1 });
    } finally {
      await locker.rollback();
      await services.timers.close();
      await services.telemetry.close();
      await impatientDb.destroy();
    }
    await partnerApi(ctx, key.token).get(`/api/v1/rides/${ride.id}`).expect(200);
  });
});
