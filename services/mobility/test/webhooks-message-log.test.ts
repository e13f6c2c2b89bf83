/**
 * The message log as the dashboard shows it: each message's request payload, each attempt's request
 * and response headers, status, answer excerpt and duration, the next retry time, filters and replay; and the
 * organization's per-day summary (`GET /admin/v1/summary`) counting rides, deliveries and webhook attempts.
 */
import request from 'supertest';
import type { ServerResponse } from 'node:http';
import { startFakeServer, type RecordedRequest, waitFor } from '@platform/test-kit';
import { createApp } from '../src/app';
import { adminToken, newAdmin } from './factories/auth';
import type { TestContext } from './helpers/context';
import { createIsolatedContext, insertEvents, registerEndpoint, silentLogger, PARTNER_HEADER, type IsolatedContext } from './helpers/webhooks';

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

interface Attempt {
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  response_body_excerpt: string | null;
  request_headers: Record<string, string> | null;
  response_headers: Record<string, string> | null;
}
interface Message {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  next_attempt_at: string | null;
  payload: { id: string; type: string; data: Record<string, unknown> } | null;
  attempt_log: Attempt[];
}

async function receiver(reply: (req: RecordedRequest, res: ServerResponse, count: number) => void) {
  let count = 0;
  const server = await startFakeServer((req, res) => reply(req, res, ++count));
  servers.push(server);
  return server;
}

function asAdmin(org: string) {
  const token = adminToken({ config: ctx.config } as TestContext, newAdmin({ org, role: 'owner' }));
  return {
    get: (path: string) => request(admin).get(`/admin/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string) => request(admin).post(`/admin/v1${path}`).set('Authorization', `Bearer ${token}`),
  };
}

async function messages(org: string, endpointId: string, query = '') {
  return (await asAdmin(org).get(`/webhooks/${endpointId}/deliveries?limit=100${query}`).expect(200)).body.data as Message[];
}

describe('the webhook message log', () => {
  it('shows the payload, both sides of every attempt and the next retry; filters by type, status and date; replays a message', async () => {
    const org = `org_log_${Date.now()}`;
    // Fails the first try of the completed ride with a 503, then answers 200 with headers of its own.
    const server = await receiver((req, res, count) => {
      const failing = req.headers['x-service-event-type'] === 'ride.completed' && req.headers['x-service-delivery-attempt'] === '1';
      res.writeHead(failing ? 503 : 200, { 'Content-Type': 'text/plain', 'X-Receiver': `hook-${count}` });
      res.end(failing ? 'busy, try later' : 'thanks');
    });
    const endpoint = await registerEndpoint(ctx.app, org, server.url, ['ride.completed', 'ride.cancelled']);
    const [completed, cancelled] = await insertEvents(ctx.db, org, ['ride.completed', 'ride.cancelled']);

    const log = await waitFor(async () => {
      const list = await messages(org, endpoint.id);
      return list.length === 2 && list.every((m) => m.status === 'succeeded') ? list : undefined;
    }, 'both messages delivered');
    const ride = log.find((m) => m.event_type === 'ride.completed')!;
    expect(ride.event_id).toBe(completed!.id);
    expect(ride.payload).toEqual(completed);
    expect(ride.next_attempt_at).toBeNull();
    expect(ride.attempt_log.map((a) => a.status_code)).toEqual([503, 200]);
    const [first, second] = ride.attempt_log as [Attempt, Attempt];
    expect(first.response_body_excerpt).toBe('busy, try later');
    expect(first.response_headers).toMatchObject({ 'content-type': 'text/plain', 'x-receiver': expect.stringMatching(/^hook-\d+$/) });
    expect(first.request_headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Service-Event-Type': 'ride.completed', 'X-Service-Delivery-Attempt': '1', 'webhook-id': completed!.id });
    expect(first.request_headers!['webhook-signature']).toMatch(/^v1,/);
    expect(second.request_headers).toMatchObject({ 'X-Service-Delivery-Attempt': '2' });
    expect(typeof second.duration_ms).toBe('number');

    // Filters: type, status, and a creation window.
    expect((await messages(org, endpoint.id, '&event_type=ride.cancelled')).map((m) => m.event_id)).toEqual([cancelled!.id]);
    expect(await messages(org, endpoint.id, '&status=failed')).toEqual([]);
    expect(await messages(org, endpoint.id, `&created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect(await messages(org, endpoint.id, `&created_before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toHaveLength(2);
    const bad = await asAdmin(org).get(`/webhooks/${endpoint.id}/deliveries?status=lost&created_after=yesterday`).expect(422);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);

    // Replay a succeeded message: one more attempt is sent and logged.
    const replayed = await asAdmin(org).post(`/webhooks/${endpoint.id}/deliveries/${ride.id}/replay`).expect(202);
    expect(replayed.body).toMatchObject({ id: ride.id, status: 'pending' });
    const again = await waitFor(async () => {
      const found = (await messages(org, endpoint.id, '&event_type=ride.completed'))[0]!;
      return found.status === 'succeeded' && found.attempt_log.length === 3 ? found : undefined;
    }, 'the replay delivered');
    expect(again.attempt_log[2]!.request_headers).toMatchObject({ 'X-Service-Delivery-Attempt': '3' });
    expect(server.requests.filter((r) => r.headers['x-service-event-id'] === completed!.id)).toHaveLength(3);

    // The partner API's log reads the same; retry (failed only) still refuses a succeeded one, replay of a pending one is a 409.
    const partner = await request(ctx.app).get(`/api/v1/webhooks/${endpoint.id}/deliveries?event_type=ride.completed`).set(PARTNER_HEADER, org).expect(200);
    expect(partner.body.data[0].payload).toEqual(completed);
    await asAdmin(org).post(`/webhooks/${endpoint.id}/deliveries/${ride.id}/retry`).expect(409);
    await asAdmin(`org_other_${Date.now()}`).post(`/webhooks/${endpoint.id}/deliveries/${ride.id}/replay`).expect(404);
  });
});

describe('GET /admin/v1/summary (mobility)', () => {
  it("counts today's rides, deliveries and webhook attempts (and 2xx) per UTC day, per mode and per endpoint", async () => {
    const org = `org_sum_${Date.now()}`;
    const server = await receiver((_req, res, count) => {
      res.writeHead(count === 1 ? 500 : 204);
      res.end();
    });
    const endpoint = await registerEndpoint(ctx.app, org, server.url, ['ride.completed']);
    const today = new Date().toISOString().slice(0, 10);
    // Two live rides and one test delivery made today, one ride of another organization.
    const row = (id: string, partner: string, livemode = true) => ({ id, partner_id: partner, livemode });
    await insertJobs(org, today, row);
    await insertEvents(ctx.db, org, ['ride.completed']);
    await waitFor(async () => {
      const list = await messages(org, endpoint.id);
      return list[0]?.status === 'succeeded' ? list : undefined;
    }, 'the message delivered after one failure');

    const live = await asAdmin(org).get('/summary?days=7').expect(200);
    expect(live.body.days).toHaveLength(7);
    expect(live.body.days.at(-1)).toEqual({ date: today, rides: 2, deliveries: 0, webhook_attempts: 2, webhook_succeeded: 1 });
    expect(live.body.days[0].date < today).toBe(true);
    expect(live.body.totals).toEqual({ rides: 2, deliveries: 0, webhook_attempts: 2, webhook_succeeded: 1 });
    expect(live.body.mode).toBe('live');

    const test = await asAdmin(org).get('/summary?days=1&mode=test').expect(200);
    expect(test.body.days).toEqual([{ date: today, rides: 0, deliveries: 1, webhook_attempts: 0, webhook_succeeded: 0 }]);

    const one = await asAdmin(org).get(`/summary?days=1&endpoint_id=${endpoint.id}`).expect(200);
    expect(one.body.totals).toMatchObject({ webhook_attempts: 2, webhook_succeeded: 1 });
    const other = await asAdmin(org).get('/summary?days=1&endpoint_id=whe_nothing').expect(200);
    expect(other.body.totals).toMatchObject({ rides: 2, webhook_attempts: 0 });

    for (const query of ['days=0', 'days=91', 'days=x', 'mode=both', 'endpoint_id=ride_1', 'colour=red']) {
      const refused = await asAdmin(org).get(`/summary?${query}`).expect(422);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    await request(admin).get('/admin/v1/summary').expect(401);
  });

  it('counts the endpoints failing now: an endpoint whose attempts fail since its last 2xx, not the one answering 2xx', async () => {
    const org = `org_failing_${Date.now()}`;
    const failingServer = await receiver((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const healthyServer = await receiver((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const failing = await registerEndpoint(ctx.app, org, failingServer.url, ['ride.completed']);
    const healthy = await registerEndpoint(ctx.app, org, healthyServer.url, ['ride.completed']);
    expect((await asAdmin(org).get('/summary?days=1').expect(200)).body.failing_endpoints).toBe(0);
    await insertEvents(ctx.db, org, ['ride.completed']);
    await waitFor(async () => {
      const [bad, good] = [await messages(org, failing.id), await messages(org, healthy.id)];
      return bad[0]?.attempt_log.length && good[0]?.status === 'succeeded' ? true : undefined;
    }, 'one failed attempt and one delivered message');

    expect((await asAdmin(org).get('/summary?days=1').expect(200)).body.failing_endpoints).toBe(1);
    expect((await asAdmin(org).get(`/summary?days=1&endpoint_id=${failing.id}`).expect(200)).body.failing_endpoints).toBe(1);
    expect((await asAdmin(org).get(`/summary?days=1&endpoint_id=${healthy.id}`).expect(200)).body.failing_endpoints).toBe(0);
    expect((await asAdmin(org).get('/summary?days=1&mode=test').expect(200)).body.failing_endpoints).toBe(0);
  });
});

/** Jobs written as rows (the summary only counts them): two live rides and one test delivery for `org`, a ride for another. */
async function insertJobs(org: string, _today: string, row: (id: string, partner: string, livemode?: boolean) => Record<string, unknown>) {
  const rideColumns = await ctx.db('rides').columnInfo();
  const deliveryColumns = await ctx.db('deliveries').columnInfo();
  const filled = (columns: Record<string, { nullable: boolean; defaultValue: unknown; type: string }>, base: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...base };
    for (const [name, info] of Object.entries(columns)) {
      if (name in out || info.nullable || info.defaultValue !== null) continue;
      out[name] = /int|numeric|double|real/.test(info.type) ? 1 : /bool/.test(info.type) ? false : /time/.test(info.type) ? new Date() : /json/.test(info.type) ? '{}' : /\[\]|ARRAY/.test(info.type) ? [] : 'x';
    }
    return out;
  };
  const suffix = () => Math.random().toString(36).slice(2, 10);
  await ctx.db('rides').insert([
    filled(rideColumns, { ...row(`ride_${suffix()}`, org), status: 'pending', tier: 'economy' }),
    filled(rideColumns, { ...row(`ride_${suffix()}`, org), status: 'completed', tier: 'economy' }),
    filled(rideColumns, { ...row(`ride_${suffix()}`, `${org}_x`), status: 'pending', tier: 'economy' }),
  ]);
  await ctx.db('deliveries').insert([filled(deliveryColumns, { ...row(`dlv_${suffix()}`, org, false), status: 'pending' })]);
}
