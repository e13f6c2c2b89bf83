import { createServer } from 'node:http';
import request from 'supertest';
import { listen, openEventStream, waitFor, type RunningServer } from '@platform/test-kit';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, newAdmin } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';
import { openMobilityOperator } from '../src/cli/operator';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// One tenant must not take every stream slot of a process.
let ctx: TestContext;
let service: RunningServer;
beforeAll(async () => {
  ctx = createTestContext({ STREAM_MAX_PER_KEY: '2', STREAM_MAX_PER_ORGANIZATION: '3', API_KEY_MAX_LIVE_PER_PARTNER: '2', API_KEY_MAX_TEST_PER_PARTNER: '1' });
  service = await listen(createServer(ctx.app));
});
afterAll(async () => {
  await service.close();
  await ctx.close();
});

const stream = (path: string, token: string) => openEventStream(`${service.url}${path}`, { Authorization: `Bearer ${token}` });

describe('streams per organization', () => {
  it('caps the open streams of all keys of one organization together (429 too_many_streams), while another organization still gets one', async () => {
    const first = await createPartnerKey(ctx);
    const second = await createPartnerKey(ctx, { owner: first.owner });
    const ride = (await partnerApi(ctx, first.token).post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
    const open = [await stream(`/api/v1/rides/${ride.id}/stream`, first.token), await stream(`/api/v1/rides/${ride.id}/stream`, first.token), await stream(`/api/v1/rides/${ride.id}/stream`, second.token)];
    for (const client of open) await client.event(0);

    // The second key holds one stream (under its own cap of 2), but the organization holds 3.
    const refused = await request(ctx.app).get(`/api/v1/rides/${ride.id}/stream`).set('Authorization', `Bearer ${second.token}`).expect(429);
    expect(refused.body.code).toBe('too_many_streams');
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body.error).toMatch(/organization/);

    const other = await createPartnerKey(ctx);
    const otherRide = (await partnerApi(ctx, other.token).post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
    const otherStream = await stream(`/api/v1/rides/${otherRide.id}/stream`, other.token);
    expect(otherStream.status).toBe(200);
    await otherStream.event(0);

    open[0]!.close();
    await waitFor(() => ctx.services.telemetry.streamLimits.open === 3, 'the closed stream to free its slot');
    const again = await stream(`/api/v1/rides/${ride.id}/stream`, second.token);
    expect(again.status).toBe(200);
    for (const client of [...open.slice(1), otherStream, again]) client.close();
    await waitFor(() => ctx.services.telemetry.streamLimits.open === 0, 'every stream to be released');
  });
});

describe('streams per process, shared fairly', () => {
  let shared: TestContext;
  let server: RunningServer;
  beforeAll(async () => {
    shared = createTestContext({ STREAM_MAX_PER_PROCESS: '4', STREAM_MAX_PER_ORGANIZATION: '3', STREAM_MAX_PER_KEY: '3' });
    server = await listen(createServer(shared.app));
  });
  afterAll(async () => {
    await server.close();
    await shared.close();
  });
  const streamOn = (path: string, token: string) => openEventStream(`${server.url}${path}`, { Authorization: `Bearer ${token}` });

  it("once the process is full, an organization's first stream is still opened; one at its share is refused 429", async () => {
    const tenants = [await createPartnerKey(shared), await createPartnerKey(shared)];
    const open = [];
    for (const tenant of tenants) {
      const ride = (await partnerApi(shared, tenant.token).post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
      for (let i = 0; i < 2; i++) open.push({ client: await streamOn(`/api/v1/rides/${ride.id}/stream`, tenant.token), ride: ride.id as string, token: tenant.token });
    }
    for (const { client } of open) await client.event(0);
    expect(shared.services.telemetry.streamLimits.open).toBe(4);

    // The first tenant is under its organization cap (3) but holds its share of the full process (4 / 2).
    const refused = await request(shared.app).get(`/api/v1/rides/${open[0]!.ride}/stream`).set('Authorization', `Bearer ${open[0]!.token}`).expect(429);
    expect(refused.body.code).toBe('too_many_streams');
    expect(refused.headers['retry-after']).toBe('5');

    const bystander = await createPartnerKey(shared);
    const ride = (await partnerApi(shared, bystander.token).post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body as Json;
    const first = await streamOn(`/api/v1/rides/${ride.id}/stream`, bystander.token);
    expect(first.status).toBe(200);
    await first.event(0);
    for (const client of [...open.map((o) => o.client), first]) client.close();
    await waitFor(() => shared.services.telemetry.streamLimits.open === 0, 'every stream to be released');
  });
});

describe('API keys per organization', () => {
  it('refuses a key beyond the live or test cap with 409 api_key_limit_reached; a revoked key frees its place', async () => {
    const owner = newAdmin();
    const auth = `Bearer ${adminToken(ctx, owner)}`;
    const create = (body: object) => request(ctx.app).post('/admin/v1/api-keys').set('Authorization', auth).send({ name: 'k', scopes: ['rides:read'], ...body });
    const kept = (await create({}).expect(201)).body as Json;
    await create({}).expect(201);
    const refused = await create({}).expect(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'api_key_limit_reached' });
    expect(refused.body.error).toMatch(/2 live API keys/);

    await create({ mode: 'test' }).expect(201);
    expect((await create({ mode: 'test' }).expect(409)).body.code).toBe('api_key_limit_reached');

    const listed = (await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', auth).expect(200)).body.data as Json[];
    expect(listed).toHaveLength(3);

    await request(ctx.app).post(`/admin/v1/api-keys/${kept.id}/revoke`).set('Authorization', auth).expect(200);
    await create({}).expect(201);
  });

  it('applies the same cap to keys the operator CLI creates', async () => {
    const operator = await openMobilityOperator(ctx.config);
    try {
      const input = { organizationId: newAdmin().org, userId: 'user_cli', name: 'cli key', scopes: ['rides:read'] };
      await operator.createKey(input);
      await operator.createKey(input);
      await expect(operator.createKey(input)).rejects.toMatchObject({ status: 409, code: 'api_key_limit_reached' });
      expect(await ctx.db('api_keys').where({ partner_id: input.organizationId }).count<{ count: string }[]>({ count: '*' })).toEqual([{ count: '2' }]);
    } finally {
      await operator.close();
    }
  });
});

describe('idle test-mode jobs', () => {
  const ageBy = (table: string, id: string, minutes: number) => ctx.db(table).where({ id }).update({ updated_at: ctx.db.raw(`now() - interval '${minutes} minutes'`) });

  it('ends test rides and deliveries nobody moved for an hour (the default TTL), with their usual events; live and recent test jobs stay', async () => {
    const ttl = ctx.config.SANDBOX_JOB_TTL_S;
    expect(ttl).toBe(3600);
    const centre = randomCentre();
    const live = await createPartnerKey(ctx);
    const test = await createPartnerKey(ctx, { owner: live.owner, mode: 'test' });
    const testApi = partnerApi(ctx, test.token);
    const liveApi = partnerApi(ctx, live.token);

    const idleRide = (await testApi.post('/api/v1/rides', rideBody(centre)).expect(201)).body as Json;
    await testApi.post(`/api/v1/sandbox/rides/${idleRide.id}/advance`, { to: 'in_progress' }).expect(200);
    const idleDelivery = (await testApi.post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body as Json;
    const pickedUp = (await testApi.post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body as Json;
    await testApi.post(`/api/v1/sandbox/deliveries/${pickedUp.id}/advance`, { to: 'picked_up' }).expect(200);
    const recentRide = (await testApi.post('/api/v1/rides', rideBody(centre)).expect(201)).body as Json;
    const liveRide = (await liveApi.post('/api/v1/rides', rideBody(centre)).expect(201)).body as Json;
    for (const [table, id] of [['rides', idleRide.id], ['deliveries', idleDelivery.id], ['deliveries', pickedUp.id], ['rides', liveRide.id]] as const) await ageBy(table, id, 61);
    await ageBy('rides', recentRide.id, 59);

    await ctx.services.sandbox.expireIdle(ttl);

    expect((await testApi.get(`/api/v1/rides/${idleRide.id}`).expect(200)).body).toMatchObject({ status: 'cancelled', cancelled_by: 'system' });
    expect((await testApi.get(`/api/v1/deliveries/${idleDelivery.id}`).expect(200)).body).toMatchObject({ status: 'cancelled', cancelled_by: 'system' });
    expect((await testApi.get(`/api/v1/deliveries/${pickedUp.id}`).expect(200)).body).toMatchObject({ status: 'failed', failure_reason: 'sandbox_expired' });
    expect((await testApi.get(`/api/v1/rides/${recentRide.id}`).expect(200)).body.status).toBe('pending');
    expect((await liveApi.get(`/api/v1/rides/${liveRide.id}`).expect(200)).body.status).toBe('pending');

    const events = async (objectId: string) => (await testApi.get(`/api/v1/events?object_id=${objectId}`).expect(200)).body.data.map((e: Json) => e.type);
    expect(await events(idleRide.id)).toContain('ride.cancelled');
    expect(await events(idleDelivery.id)).toContain('delivery.cancelled');
    expect(await events(pickedUp.id)).toContain('delivery.failed');

    // A second sweep finds nothing left to end.
    const again = await ctx.services.sandbox.expireIdle(ttl);
    expect(again).toEqual({ rides: 0, deliveries: 0 });
  });
});
