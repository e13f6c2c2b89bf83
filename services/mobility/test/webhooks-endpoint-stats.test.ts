/**
 * The dashboard's endpoint page as in Svix: the endpoint's success rate, latency p50/p95 and volume over the last
 * 24 hours and 7 days (`GET /admin/v1/webhooks/{id}/stats`), and "Send example event" (`POST .../examples`): an event of a
 * catalog type with its example data, marked `"example": true`, signed and delivered through the outbox and the worker.
 */
import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { startFakeServer, waitFor } from '@platform/test-kit';
import { verifyServiceSignature } from '@platform/webhook-signature';
import { createApp } from '../src/app';
import { adminToken, newAdmin } from './factories/auth';
import type { TestContext } from './helpers/context';
import { createIsolatedContext, registerEndpoint, silentLogger, type IsolatedContext } from './helpers/webhooks';

let ctx: IsolatedContext;
let admin: ReturnType<typeof createApp>;
const servers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ctx = await createIsolatedContext({ WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_BACKOFF_MS: '50' });
  admin = createApp({ db: ctx.db, redis: ctx.redis, config: ctx.config, logger: silentLogger });
  ctx.startDelivery();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

function asAdmin(org: string, role: 'owner' | 'member' = 'owner') {
  const token = adminToken({ config: ctx.config } as TestContext, newAdmin({ org, role }));
  return {
    get: (path: string) => request(admin).get(`/admin/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string) => request(admin).post(`/admin/v1${path}`).set('Authorization', `Bearer ${token}`),
  };
}

const HOUR = 3600_000;
let seq = 0;

/** One message to the endpoint (its event already dispatched, so the relay leaves it alone) with the given attempts. */
async function messageWith(org: string, endpointId: string, attempts: { hoursAgo: number; ms: number; status: number | null }[]) {
  seq += 1;
  const eventId = `evt_${randomBytes(8).toString('hex')}`;
  const deliveryId = `whd_${randomBytes(8).toString('hex')}`;
  const createdAt = new Date(Date.now() - Math.max(...attempts.map((a) => a.hoursAgo)) * HOUR - 1000);
  await ctx.db('outbox_events').insert({
    id: eventId,
    partner_id: org,
    livemode: true,
    type: 'ride.completed',
    object_type: 'ride',
    object_id: `ride_${seq}`,
    sequence: seq,
    body: JSON.stringify({ id: eventId, type: 'ride.completed', created_at: createdAt.toISOString(), livemode: true, data: {} }),
    created_at: createdAt,
    dispatched_at: createdAt,
  });
  const last = attempts[attempts.length - 1]!;
  await ctx.db('webhook_deliveries').insert({
    id: deliveryId,
    event_id: eventId,
    endpoint_id: endpointId,
    partner_id: org,
    status: last.status !== null && last.status < 300 ? 'succeeded' : 'failed',
    attempts: attempts.length,
    max_attempts: attempts.length,
    created_at: createdAt,
  });
  await ctx.db('webhook_attempts').insert(
    attempts.map((a, index) => ({
      delivery_id: deliveryId,
      attempt: index + 1,
      status_code: a.status,
      duration_ms: a.ms,
      error: a.status === null ? 'connect ECONNREFUSED' : null,
      created_at: new Date(Date.now() - a.hoursAgo * HOUR),
    })),
  );
}

describe('GET /admin/v1/webhooks/{id}/stats', () => {
  it('counts the last 24 hours and 7 days of attempts: messages, success rate and p50/p95 latency; another organization gets a 404', async () => {
    const org = `org_stats_${Date.now()}`;
    const endpoint = await registerEndpoint(ctx.app, org, 'http://127.0.0.1:9/never', ['ride.completed']);

    const empty = await asAdmin(org).get(`/webhooks/${endpoint.id}/stats`).expect(200);
    expect(empty.body.windows).toEqual([
      expect.objectContaining({ window: '24h', messages: 0, attempts: 0, succeeded: 0, failed: 0, success_rate: null, latency_ms: { p50: null, p95: null } }),
      expect.objectContaining({ window: '7d', messages: 0, attempts: 0, success_rate: null }),
    ]);

    // Last 24 h: 100 ms (200), 200 ms (200), 300 ms (503), 400 ms (no answer), in three messages.
    await messageWith(org, endpoint.id, [{ hoursAgo: 5, ms: 300, status: 503 }, { hoursAgo: 4, ms: 100, status: 200 }]);
    await messageWith(org, endpoint.id, [{ hoursAgo: 2, ms: 200, status: 204 }]);
    await messageWith(org, endpoint.id, [{ hoursAgo: 1, ms: 400, status: null }]);
    // Three days ago (7 d only) and eight days ago (neither).
    await messageWith(org, endpoint.id, [{ hoursAgo: 72, ms: 1000, status: 200 }]);
    await messageWith(org, endpoint.id, [{ hoursAgo: 8 * 24, ms: 5000, status: 500 }]);
    // Another organization's endpoint's attempts never count.
    const otherOrg = `org_stats_other_${Date.now()}`;
    const other = await registerEndpoint(ctx.app, otherOrg, 'http://127.0.0.1:9/other', ['ride.completed']);
    await messageWith(otherOrg, other.id, [{ hoursAgo: 1, ms: 9000, status: 500 }]);

    const res = await asAdmin(org, 'member').get(`/webhooks/${endpoint.id}/stats`).expect(200);
    expect(res.body.endpoint_id).toBe(endpoint.id);
    const [day, week] = res.body.windows;
    // percentile_cont over [100, 200, 300, 400]: p50 = 250, p95 = 300 + 0.85 × 100 = 385.
    expect(day).toEqual({ window: '24h', since: expect.any(String), messages: 3, attempts: 4, succeeded: 2, failed: 2, success_rate: 0.5, latency_ms: { p50: 250, p95: 385 } });
    // Over [100, 200, 300, 400, 1000]: p50 = 300, p95 = 400 + 0.8 × 600 = 880.
    expect(week).toEqual({ window: '7d', since: expect.any(String), messages: 4, attempts: 5, succeeded: 3, failed: 2, success_rate: 0.6, latency_ms: { p50: 300, p95: 880 } });
    expect(Date.parse(res.body.computed_at) - Date.parse(week.since)).toBe(7 * 24 * HOUR);

    const foreign = await asAdmin(otherOrg).get(`/webhooks/${endpoint.id}/stats`).expect(404);
    expect(foreign.headers['content-type']).toMatch(/problem\+json/);
    expect(foreign.body.code).toBe('not_found');
    await asAdmin(org).get('/webhooks/whe_unknown/stats').expect(404);
    // The test mode does not see the live endpoint.
    await asAdmin(org).get(`/webhooks/${endpoint.id}/stats?mode=test`).expect(404);
    await request(admin).get(`/admin/v1/webhooks/${endpoint.id}/stats`).expect(401);
  });
});

describe('POST /admin/v1/webhooks/{id}/examples', () => {
  it('sends the catalog example of a type to that endpoint alone, signed and marked as an example, and audits it', async () => {
    const org = `org_example_${Date.now()}`;
    const server = await startFakeServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
    servers.push(server);
    const endpoint = await registerEndpoint(ctx.app, org, server.url, ['ride.completed']);
    const data = { id: 'ride_01HZX3Q8M4', status: 'completed', note: 'naïve ✓' };

    const res = await asAdmin(org).post(`/webhooks/${endpoint.id}/examples`).send({ event_type: 'delivery.delivered', data }).expect(202);
    expect(res.body).toMatchObject({ event_type: 'delivery.delivered', endpoint_id: endpoint.id, status: 'pending' });

    const received = await waitFor(() => server.requests[0], 'the example delivered');
    const body = JSON.parse(received.body.toString('utf8'));
    expect(body).toEqual({ id: res.body.event_id, type: 'delivery.delivered', created_at: expect.any(String), livemode: true, example: true, data });
    expect(received.headers['x-service-event-type']).toBe('delivery.delivered');
    expect(verifyServiceSignature(received.body, received.headers['x-service-signature'], endpoint.secret)).toBe(true);

    const log = await waitFor(async () => {
      const list = (await asAdmin(org).get(`/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data as { id: string; status: string }[];
      return list.find((m) => m.id === res.body.id && m.status === 'succeeded');
    }, 'the example logged as succeeded');
    expect(log).toBeDefined();
    const audit = await asAdmin(org).get('/audit-log').expect(200);
    expect(audit.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'webhook_endpoint.example_sent', target_id: endpoint.id })]));
    // The stats now count the example's attempt.
    const stats = await asAdmin(org).get(`/webhooks/${endpoint.id}/stats`).expect(200);
    expect(stats.body.windows[0]).toMatchObject({ messages: 1, attempts: 1, succeeded: 1, success_rate: 1 });
  });

  it('refuses an unknown event type (422), another organization (404), a member (403) and a disabled endpoint (409), sending nothing', async () => {
    const org = `org_example_bad_${Date.now()}`;
    const server = await startFakeServer((_req, res) => void res.end('ok'));
    servers.push(server);
    const endpoint = await registerEndpoint(ctx.app, org, server.url, ['ride.completed']);
    const events = async () => Number((await ctx.db('outbox_events').where({ partner_id: org }).count<{ count: string }[]>('* as count'))[0]!.count);

    const invalid = await asAdmin(org).post(`/webhooks/${endpoint.id}/examples`).send({ event_type: 'ride.exploded', data: {} }).expect(422);
    expect(invalid.body.code).toBe('validation_failed');
    await asAdmin(org).post(`/webhooks/${endpoint.id}/examples`).send({ event_type: 'ride.completed' }).expect(422);
    await asAdmin(`org_someone_else_${Date.now()}`).post(`/webhooks/${endpoint.id}/examples`).send({ event_type: 'ride.completed', data: {} }).expect(404);
    await asAdmin(org, 'member').post(`/webhooks/${endpoint.id}/examples`).send({ event_type: 'ride.completed', data: {} }).expect(403);
    await asAdmin(org).post(`/webhooks/${endpoint.id}/test`).expect(202);
    await request(admin)
      .patch(`/admin/v1/webhooks/${endpoint.id}`)
      .set('Authorization', `Bearer ${adminToken({ config: ctx.config } as TestContext, newAdmin({ org, role: 'owner' }))}`)
      .send({ enabled: false })
      .expect(200);
    const before = await events();
    const disabled = await asAdmin(org).post(`/webhooks/${endpoint.id}/examples`).send({ event_type: 'ride.completed', data: {} }).expect(409);
    expect(disabled.body.code).toBe('endpoint_disabled');
    expect(await events()).toBe(before);
    // Only the test event ever reached the receiver.
    await waitFor(() => server.requests.length >= 1 || undefined, 'the test event delivered');
    expect(server.requests.map((r) => JSON.parse(r.body.toString('utf8')).type)).toEqual(['webhook.test']);
  });
});
