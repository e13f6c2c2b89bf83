import { createServer } from 'node:http';
import pino from 'pino';
import { createApp as createGateway } from '@platform/gateway';
import request from 'supertest';
import { listen, openEventStream, waitFor, type RunningServer } from '@platform/test-kit';
import { beforeAllWithPartner, createTestContext, type PartnerApi, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
let partnerToken: string;
let service: RunningServer;
let gateway: RunningServer;

beforeAllWithPartner(
  (context, api) => {
    ctx = context;
    partner = api;
  },
  { STREAM_MAX_PER_KEY: '2' },
);
beforeAll(async () => {
  partnerToken = (await createPartnerKey(ctx)).token;
  partner = partnerApi(ctx, partnerToken);
  service = await listen(createServer(ctx.app));
  const app = createGateway({ config: { CERTIFICATE_URL: 'http://127.0.0.1:9', MOBILITY_URL: service.url, UPSTREAM_TIMEOUT_MS: 5000 }, logger: pino({ level: 'silent' }) });
  gateway = await listen(createServer(app));
});
afterAll(async () => {
  await gateway.close();
  await service.close();
});

const stream = (path: string, token = partnerToken) => openEventStream(`${service.url}${path}`, { Authorization: `Bearer ${token}` });
const channelOf = (jobId: string) => ctx.services.telemetry.channelOf(jobId);

/** Redis's own count of subscribers on the job's channel, across every connection. */
async function redisSubscribers(jobId: string): Promise<number> {
  const [, count] = (await ctx.redis.pubsub('NUMSUB', channelOf(jobId))) as [string, number];
  return Number(count);
}

async function acceptedRide() {
  const centre = randomCentre();
  const driver = await onlineDriver(ctx, offset(centre, 300, 200));
  const ride = (await partner.post('/api/v1/rides', rideBody(centre)).expect(201)).body as { id: string };
  const [offer] = await driver.app.offers();
  await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
  return { ride, driver, centre };
}

describe('GET /api/v1/rides/{id}/stream', () => {
  it('sends the snapshot, each status change and position, and ends after the terminal status', async () => {
    const { ride, driver, centre } = await acceptedRide();
    const client = await stream(`/api/v1/rides/${ride.id}/stream`);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');

    const snapshot = await client.event(0);
    expect(snapshot).toMatchObject({ id: '1', event: 'status' });
    const current = (await partner.get(`/api/v1/rides/${ride.id}`).expect(200)).body;
    expect(JSON.parse(snapshot.data)).toEqual(current);

    const moved = offset(centre, 100, 0);
    const recorded = (await driver.app.post('/location', { ...moved, heading: 180, speed_kph: 25 }).expect(200)).body;
    const location = await client.event(1);
    expect(location).toMatchObject({ id: '2', event: 'location' });
    expect(JSON.parse(location.data)).toEqual({ lat: moved.lat, lng: moved.lng, heading: 180, speed_kph: 25, updated_at: recorded.updated_at });

    await driver.app.post(`/rides/${ride.id}/arrived`).expect(200);
    expect(JSON.parse((await client.event(2)).data)).toMatchObject({ id: ride.id, status: 'arrived' });
    await driver.app.post(`/rides/${ride.id}/start`).expect(200);
    expect(JSON.parse((await client.event(3)).data)).toMatchObject({ status: 'in_progress' });
    const completed = (await driver.app.post(`/rides/${ride.id}/complete`).expect(200)).body;
    const last = await client.event(4);
    expect(last).toMatchObject({ id: '5', event: 'status' });
    expect(JSON.parse(last.data)).toEqual(completed);

    await client.ended; // the server closed the stream
    expect(client.events).toHaveLength(5);
    await waitFor(async () => ctx.services.telemetry.hub.listenerCount(channelOf(ride.id)) === 0 && (await redisSubscribers(ride.id)) === 0, 'the subscription to be released');
  });

  it('releases its subscription, timers and slot when the client disconnects', async () => {
    const { ride } = await acceptedRide();
    const first = await stream(`/api/v1/rides/${ride.id}/stream`);
    const second = await stream(`/api/v1/rides/${ride.id}/stream`);
    await first.event(0);
    await second.event(0);
    // Two clients of one ride share the process's one Redis subscription.
    expect(ctx.services.telemetry.hub.listenerCount(channelOf(ride.id))).toBe(2);
    expect(await redisSubscribers(ride.id)).toBe(1);
    expect(ctx.services.telemetry.streamLimits.open).toBe(2);

    first.close();
    await waitFor(() => ctx.services.telemetry.hub.listenerCount(channelOf(ride.id)) === 1, 'one listener to be left');
    expect(await redisSubscribers(ride.id)).toBe(1);
    second.close();
    await waitFor(async () => ctx.services.telemetry.hub.listenerCount(channelOf(ride.id)) === 0 && (await redisSubscribers(ride.id)) === 0, 'the subscription to be released');
    await waitFor(() => ctx.services.telemetry.streamLimits.open === 0, 'both stream slots to be free');
    // Nothing kept the closed streams alive: a later change reaches nobody and the ride still moves normally.
    await partner.post(`/api/v1/rides/${ride.id}/cancel`).expect(200);
  });

  it('answers a ride that already ended with its snapshot and closes', async () => {
    const ride = (await partner.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    await partner.post(`/api/v1/rides/${ride.id}/cancel`).expect(200);
    const client = await stream(`/api/v1/rides/${ride.id}/stream`);
    await client.ended;
    expect(client.events.map((e) => [e.event, JSON.parse(e.data).status])).toEqual([['status', 'cancelled']]);
  });

  it('refuses a missing key (401), a key without rides:read (403), and another partner\'s or an unknown ride (404)', async () => {
    const ride = (await partner.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    const anonymous = await request(ctx.app).get(`/api/v1/rides/${ride.id}/stream`).expect(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(anonymous.body.code).toBe('missing_api_key');

    const writer = await createPartnerKey(ctx, { scopes: ['rides:write'] });
    const forbidden = await request(ctx.app).get(`/api/v1/rides/${ride.id}/stream`).set('Authorization', `Bearer ${writer.token}`).expect(403);
    expect(forbidden.body.code).toBe('insufficient_scope');

    const other = await createPartnerKey(ctx);
    const foreign = await request(ctx.app).get(`/api/v1/rides/${ride.id}/stream`).set('Authorization', `Bearer ${other.token}`).expect(404);
    expect(foreign.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(foreign.body.code).toBe('not_found');
    await request(ctx.app).get('/api/v1/rides/ride_doesnotexist0000/stream').set('Authorization', `Bearer ${other.token}`).expect(404);
    await request(ctx.app).get('/api/v1/rides/not-an-id/stream').set('Authorization', `Bearer ${other.token}`).expect(404);
    // A refused stream held nothing.
    expect(ctx.services.telemetry.hub.listenerCount(channelOf(ride.id))).toBe(0);
    expect(ctx.services.telemetry.streamLimits.open).toBe(0);
  });

  it('caps the open streams of one key (429, Problem Details) and frees the slot when one closes', async () => {
    const { token, owner } = await createPartnerKey(ctx);
    const sibling = await createPartnerKey(ctx, { owner });
    const own = partnerApi(ctx, token);
    const ride = (await own.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    const first = await stream(`/api/v1/rides/${ride.id}/stream`, token);
    const second = await stream(`/api/v1/rides/${ride.id}/stream`, token);
    await first.event(0);
    await second.event(0);
    const refused = await request(ctx.app).get(`/api/v1/rides/${ride.id}/stream`).set('Authorization', `Bearer ${token}`).expect(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body.code).toBe('too_many_streams');
    // Another key of the same partner has its own allowance.
    const otherKeyStream = await stream(`/api/v1/rides/${ride.id}/stream`, sibling.token);
    await otherKeyStream.event(0);

    first.close();
    await waitFor(() => ctx.services.telemetry.hub.listenerCount(channelOf(ride.id)) === 2, 'the first stream to be released');
    const third = await stream(`/api/v1/rides/${ride.id}/stream`, token);
    expect(third.status).toBe(200);
    await third.event(0);
    for (const client of [second, third, otherKeyStream]) client.close();
    await waitFor(async () => (await redisSubscribers(ride.id)) === 0, 'the subscription to be released');
  });
});

describe('shutdown', () => {
  it('ends every open stream when the process shuts down, so draining does not wait for jobs to finish', async () => {
    const ride = (await partner.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body;
    const stopping = createTestContext(); // a second process on the same database and Redis prefix
    const server = await listen(createServer(stopping.app));
    try {
      const client = await openEventStream(`${server.url}/api/v1/rides/${ride.id}/stream`, { Authorization: `Bearer ${partnerToken}` });
      await client.event(0);
      await stopping.services.telemetry.close(); // what SIGTERM runs before the server drains
      await client.ended;
      expect(client.events).toHaveLength(1);
      expect(stopping.services.telemetry.streamLimits.open).toBe(0);
      expect(await redisSubscribers(ride.id)).toBe(0);
    } finally {
      await server.close();
      await stopping.close();
    }
  });
});

describe('a job stream through the gateway', () => {
  it('arrives event by event, uncompressed, and a client hang-up at the gateway releases the service\'s subscription', async () => {
    const { ride, driver, centre } = await acceptedRide();
    const client = await openEventStream(`${gateway.url}/api/v1/rides/${ride.id}/stream`, { Authorization: `Bearer ${partnerToken}`, 'Accept-Encoding': 'gzip, br' });
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse((await client.event(0)).data)).toMatchObject({ id: ride.id, status: 'accepted' });
    await driver.app.post('/location', offset(centre, 120, 80)).expect(200);
    expect((await client.event(1)).event).toBe('location');
    await driver.app.post(`/rides/${ride.id}/arrived`).expect(200);
    expect(JSON.parse((await client.event(2)).data)).toMatchObject({ status: 'arrived' });

    client.close();
    await waitFor(async () => ctx.services.telemetry.hub.listenerCount(channelOf(ride.id)) === 0 && (await redisSubscribers(ride.id)) === 0, 'the subscription to be released');
    await waitFor(() => ctx.services.telemetry.streamLimits.open === 0, 'the stream slot to be free');
  });
});

describe('GET /api/v1/deliveries/{id}/stream', () => {
  it('streams a delivery until the partner cancels it', async () => {
    const delivery = (await partner.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body;
    const client = await stream(`/api/v1/deliveries/${delivery.id}/stream`);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(JSON.parse((await client.event(0)).data)).toMatchObject({ id: delivery.id, status: 'pending' });
    const cancelled = (await partner.post(`/api/v1/deliveries/${delivery.id}/cancel`).expect(200)).body;
    expect(JSON.parse((await client.event(1)).data)).toEqual(cancelled);
    await client.ended;
    expect(client.events).toHaveLength(2);
  });

  it('needs deliveries:read and is tenant isolated', async () => {
    const delivery = (await partner.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body;
    const ridesOnly = await createPartnerKey(ctx, { scopes: ['rides:read'] });
    const forbidden = await request(ctx.app).get(`/api/v1/deliveries/${delivery.id}/stream`).set('Authorization', `Bearer ${ridesOnly.token}`).expect(403);
    expect(forbidden.body.code).toBe('insufficient_scope');
    const other = await createPartnerKey(ctx);
    const foreign = await request(ctx.app).get(`/api/v1/deliveries/${delivery.id}/stream`).set('Authorization', `Bearer ${other.token}`).expect(404);
    expect(foreign.body.code).toBe('not_found');
  });
});
