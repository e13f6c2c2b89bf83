import request from 'supertest';
import type { ServerResponse } from 'node:http';
import { sendJson, startFakeServer, type RecordedRequest, waitFor, waitForDrained } from '@platform/test-kit';
import { verifyServiceSignature, verifyStandardWebhook } from '@platform/webhook-signature';
import { WEBHOOK_EVENT_TYPES } from '../src/features/webhook-endpoints/webhook-events';
import { createOutboxRelay } from '../src/features/webhook-dispatch/outbox-relay';
import { createEndpointSecretCipher } from '../src/features/webhook-dispatch/endpoint-secret-cipher';
import { createIsolatedContext, insertEvents, newPartnerId, PARTNER_HEADER, registerEndpoint, silentLogger, type IsolatedContext } from './helpers/webhooks';

const PREVIOUS_KEY_ID = 'k2025';
const PREVIOUS_KEY = 'a previous webhook secret key of at least thirty-two bytes';

let ctx: IsolatedContext;
const servers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ctx = await createIsolatedContext({
    WEBHOOK_MAX_ATTEMPTS: '5',
    WEBHOOK_BACKOFF_MS: '50',
    WEBHOOK_TIMEOUT_MS: '10000',
    WEBHOOK_SECRET_KEYS_PREVIOUS: `${PREVIOUS_KEY_ID}:${PREVIOUS_KEY}`, // rows encrypted under it must still be delivered
  });
  ctx.startDelivery();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

async function receiver(reply: (req: RecordedRequest, res: ServerResponse, count: number) => void) {
  let count = 0;
  const server = await startFakeServer((req, res) => reply(req, res, ++count));
  servers.push(server);
  return server;
}

const ok = (_req: RecordedRequest, res: ServerResponse) => sendJson(res, 200, { received: true });

async function deliveriesOf(partnerId: string, endpointId: string) {
  const res = await request(ctx.app).get(`/api/v1/webhooks/${endpointId}/deliveries?limit=100`).set(PARTNER_HEADER, partnerId).expect(200);
  return res.body.data as {
    id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    last_error: string | null;
    delivered_at: string | null;
    attempt_log: { attempt: number; status_code: number | null; duration_ms: number; error: string | null; response_body_excerpt: string | null }[];
  }[];
}

async function settledDelivery(partnerId: string, endpointId: string, status: 'succeeded' | 'failed') {
  return waitFor(async () => (await deliveriesOf(partnerId, endpointId)).find((d) => d.status === status), `a ${status} delivery`);
}

describe('webhook delivery', () => {
  it('delivers every event type to a subscribed receiver, signed so @platform/webhook-signature accepts it', async () => {
    const partner = newPartnerId();
    const server = await receiver(ok);
    const endpoint = await registerEndpoint(ctx.app, partner, `${server.url}/hooks?source=mobility`);
    const events = await insertEvents(ctx.db, partner, [...WEBHOOK_EVENT_TYPES]);

    await waitFor(() => server.requests.length >= events.length, 'all events at the receiver');
    expect(new Set(server.requests.map((r) => r.headers['x-service-event-id']))).toEqual(new Set(events.map((e) => e.id)));
    for (const req of server.requests) {
      const event = events.find((e) => e.id === req.headers['x-service-event-id'])!;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/hooks?source=mobility');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['x-service-event-type']).toBe(event.type);
      expect(req.headers['x-service-delivery-attempt']).toBe('1');
      expect(req.headers['x-service-timestamp']).toBe(req.headers['webhook-timestamp']);
      expect(req.headers['webhook-id']).toBe(event.id);
      expect(JSON.parse(req.body.toString('utf8'))).toEqual(event); // {id, type, created_at, data}
      expect(verifyServiceSignature(req.body, req.headers['x-service-signature'], endpoint.secret)).toBe(true);
      expect(verifyStandardWebhook(req.body, req.headers, endpoint.secret)).toBe(true);

      const tampered = Buffer.from(req.body.toString('utf8').replace(event.id, `${event.id}x`));
      expect(verifyServiceSignature(tampered, req.headers['x-service-signature'], endpoint.secret)).toBe(false);
      expect(verifyStandardWebhook(tampered, req.headers, endpoint.secret)).toBe(false);
    }
    const log = await waitFor(async () => {
      const rows = await deliveriesOf(partner, endpoint.id);
      return rows.length === events.length && rows.every((d) => d.status === 'succeeded') && rows;
    }, 'all deliveries succeeded');
    expect(log[0]).toMatchObject({ attempts: 1, last_status_code: 200, last_error: null, delivered_at: expect.any(String) });
    expect(log[0]!.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null, response_body_excerpt: '{"received":true}' })]);
  });

  it('takes a 2xx whose body holds a NUL byte as delivered once, with the answer logged escaped', async () => {
    const partner = newPartnerId();
    const server = await receiver((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(Buffer.from('ok\u0000done\u001b\n', 'utf8'));
    });
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const [event] = await insertEvents(ctx.db, partner, ['ride.completed']);

    const delivered = await settledDelivery(partner, endpoint.id, 'succeeded');
    expect(delivered).toMatchObject({ event_id: event!.id, attempts: 1, last_status_code: 200, last_error: null });
    expect(delivered.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null, response_body_excerpt: 'ok\\u0000done\\u001b\n' })]);
    await waitForDrained(ctx.queue); // a resend would be queued (after the 50 ms backoff) before the queue drains
    expect(server.requests).toHaveLength(1);
  });

  it('sends only subscribed types, and never another partner’s events', async () => {
    const partner = newPartnerId();
    const other = newPartnerId();
    const completedOnly = await receiver(ok);
    const everything = await receiver(ok);
    const stranger = await receiver(ok);
    await registerEndpoint(ctx.app, partner, completedOnly.url, ['ride.completed']);
    await registerEndpoint(ctx.app, partner, everything.url);
    await registerEndpoint(ctx.app, other, stranger.url);
    const events = await insertEvents(ctx.db, partner, ['ride.accepted', 'ride.completed', 'delivery.delivered']);

    await waitFor(() => everything.requests.length === 3 && completedOnly.requests.length === 1, 'deliveries');
    await ctx.startDelivery().relay.runOnce({ sweepOlderThanMs: 0 }); // a second relay finds nothing more to send
    await waitForDrained(ctx.queue);
    expect(completedOnly.requests.map((r) => r.headers['x-service-event-id'])).toEqual([events[1]!.id]);
    expect(everything.requests).toHaveLength(3);
    expect(stranger.requests).toHaveLength(0);
  });

  it('retries 500, 500 then 200: delivered once, three attempts logged, never sent again', async () => {
    const partner = newPartnerId();
    const server = await receiver((_req, res, n) => (n <= 2 ? sendJson(res, 500, { error: `boom ${n}` }) : sendJson(res, 200, { ok: true })));
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const [event] = await insertEvents(ctx.db, partner, ['ride.completed']);

    const delivered = await settledDelivery(partner, endpoint.id, 'succeeded');
    expect(delivered).toMatchObject({ event_id: event!.id, event_type: 'ride.completed', attempts: 3, last_status_code: 200 });
    expect(delivered.attempt_log.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 200, null],
    ]);
    expect(delivered.attempt_log[0]!.response_body_excerpt).toBe('{"error":"boom 1"}');
    expect(server.requests.map((r) => r.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(server.requests.map((r) => r.body.toString('hex'))).size).toBe(1); // the same bytes every time
    expect(new Set(server.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event!.id]));

    // Relaying and sweeping again, or re-adding the job, must not send a delivered event again.
    const delivery = ctx.startDelivery();
    await delivery.relay.runOnce({ sweepOlderThanMs: 0 });
    await ctx.queue.add('deliver', { deliveryId: delivered.id, endpointId: endpoint.id });
    await waitForDrained(ctx.queue);
    expect(server.requests).toHaveLength(3);
    expect((await deliveriesOf(partner, endpoint.id))[0]!.attempt_log).toHaveLength(3);
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS, then sends again once retried by hand', async () => {
    const partner = newPartnerId();
    let healthy = false;
    const server = await receiver((_req, res) => sendJson(res, healthy ? 204 : 503, {}));
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    await insertEvents(ctx.db, partner, ['delivery.failed']);

    const failed = await settledDelivery(partner, endpoint.id, 'failed');
    expect(failed).toMatchObject({ attempts: 5, last_status_code: 503, last_error: 'HTTP 503', delivered_at: null });
    expect(failed.attempt_log).toHaveLength(5);
    await waitForDrained(ctx.queue);
    expect(server.requests).toHaveLength(5);

    healthy = true;
    const retried = await request(ctx.app).post(`/api/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`).set(PARTNER_HEADER, partner).expect(202);
    expect(retried.body).toMatchObject({ id: failed.id, status: 'pending' });
    const delivered = await settledDelivery(partner, endpoint.id, 'succeeded');
    expect(delivered.attempt_log.map((a) => a.status_code)).toEqual([503, 503, 503, 503, 503, 204]);
    expect(server.requests.at(-1)!.headers['x-service-delivery-attempt']).toBe('6');

    const again = await request(ctx.app).post(`/api/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`).set(PARTNER_HEADER, partner).expect(409);
    expect(again.body).toMatchObject({ error: 'Only a failed delivery can be retried (this one is succeeded)', code: 'delivery_not_failed' });
    await request(ctx.app).post(`/api/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`).set(PARTNER_HEADER, newPartnerId()).expect(404);
  });

  it('disables the endpoint on 410 Gone and sends it nothing more', async () => {
    const partner = newPartnerId();
    const server = await receiver((_req, res) => sendJson(res, 410, { error: 'gone' }));
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    await insertEvents(ctx.db, partner, ['ride.cancelled']);

    const failed = await settledDelivery(partner, endpoint.id, 'failed');
    expect(failed).toMatchObject({ attempts: 1, last_status_code: 410 });
    const list = await request(ctx.app).get('/api/v1/webhooks').set(PARTNER_HEADER, partner).expect(200);
    expect(list.body.data[0]).toMatchObject({ id: endpoint.id, status: 'disabled', disabled_reason: 'The endpoint answered 410 Gone' });

    await insertEvents(ctx.db, partner, ['ride.completed']);
    await ctx.startDelivery().relay.runOnce();
    await waitForDrained(ctx.queue);
    expect(server.requests).toHaveLength(1);
    expect(await deliveriesOf(partner, endpoint.id)).toHaveLength(1);
    const retry = await request(ctx.app).post(`/api/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`).set(PARTNER_HEADER, partner).expect(409);
    expect(retry.body.code).toBe('endpoint_disabled');
  });

  it('does not follow redirects: a 302 is a failed attempt and is retried', async () => {
    const partner = newPartnerId();
    const target = await receiver(ok);
    const server = await receiver((_req, res, n) => {
      if (n > 1) return sendJson(res, 200, {});
      res.writeHead(302, { Location: `${target.url}/elsewhere` });
      res.end();
    });
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    await insertEvents(ctx.db, partner, ['ride.arrived']);

    const delivered = await settledDelivery(partner, endpoint.id, 'succeeded');
    expect(delivered.attempt_log.map((a) => [a.status_code, a.error])).toEqual([
      [302, 'HTTP 302: redirects are not followed'],
      [200, null],
    ]);
    expect(target.requests).toHaveLength(0);
  });

  it('honours Retry-After on 429', async () => {
    const partner = newPartnerId();
    const seenAt: number[] = [];
    const server = await receiver((_req, res, n) => {
      seenAt.push(Date.now());
      if (n > 1) return sendJson(res, 200, {});
      res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' });
      res.end('{"error":"slow down"}');
    });
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    await insertEvents(ctx.db, partner, ['delivery.picked_up']);

    const delivered = await settledDelivery(partner, endpoint.id, 'succeeded');
    expect(delivered.attempt_log.map((a) => a.status_code)).toEqual([429, 200]);
    // A lower bound only: the backoff alone would have retried after about 50 ms.
    expect(seenAt[1]! - seenAt[0]!).toBeGreaterThanOrEqual(950);
  });

  it('logs a refused connection as a failed attempt and retries it', async () => {
    const partner = newPartnerId();
    const closed = await receiver(ok);
    const endpoint = await registerEndpoint(ctx.app, partner, closed.url);
    await closed.close();
    await insertEvents(ctx.db, partner, ['ride.in_progress']);

    const refused = await settledDelivery(partner, endpoint.id, 'failed');
    expect(refused.attempt_log).toHaveLength(5);
    expect(refused.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('creates each event × endpoint delivery once when several relays run at the same time', async () => {
    const partner = newPartnerId();
    const server = await receiver(ok);
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const second = await receiver(ok);
    await registerEndpoint(ctx.app, partner, second.url);
    const events = await insertEvents(ctx.db, partner, Array.from({ length: 300 }, (_, i) => WEBHOOK_EVENT_TYPES[i % 11]!));
    const relays = Array.from({ length: 4 }, () => createOutboxRelay({ db: ctx.db, queue: ctx.queue, logger: silentLogger, maxAttempts: 5, batchSize: 25 }));
    await Promise.all(relays.map((relay) => relay.runOnce()));
    await Promise.all(relays.map((relay) => relay.runOnce({ sweepOlderThanMs: 0 })));

    await waitFor(() => server.requests.length >= 300 && second.requests.length >= 300, 'both receivers served');
    const delivered = await waitFor(async () => {
      const rows = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).select('status', 'attempts');
      return rows.length === 300 && rows.every((r) => r.status === 'succeeded') && rows;
    }, 'all 300 deliveries succeeded');
    await waitForDrained(ctx.queue);
    expect(new Set(server.requests.map((r) => r.headers['x-service-event-id']))).toEqual(new Set(events.map((e) => e.id)));
    // One job per delivery: a request beyond the first is only ever a logged retry (say, a timeout on a loaded machine).
    const attempts = delivered.reduce((sum, r) => sum + Number(r.attempts), 0);
    expect(server.requests).toHaveLength(attempts);
  });
});

describe('signing secrets at rest', () => {
  const storedSecret = async (endpointId: string) => (await ctx.db('webhook_endpoints').where({ id: endpointId }).first('secret')).secret as string;

  async function deliverOne(partner: string, endpoint: { id: string; secret: string }, server: Awaited<ReturnType<typeof receiver>>) {
    const [event] = await insertEvents(ctx.db, partner, ['ride.completed']);
    const req = await waitFor(() => server.requests.find((r) => r.headers['webhook-id'] === event!.id), 'the delivery');
    expect(verifyStandardWebhook(req.body, req.headers, endpoint.secret)).toBe(true);
    expect(verifyServiceSignature(req.body, req.headers['x-service-signature'], endpoint.secret)).toBe(true);
  }

  it('stores the secret encrypted, and deliveries are signed with the secret shown at registration', async () => {
    const partner = newPartnerId();
    const server = await receiver(ok);
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const stored = await storedSecret(endpoint.id);
    expect(stored).toMatch(/^v1:dev:[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain('whsec_');
    expect(stored).not.toContain(endpoint.secret.slice('whsec_'.length, 20));
    await deliverOne(partner, endpoint, server);
  });

  it('delivers with a secret encrypted under a previous key, then re-encrypts it under the current key', async () => {
    const partner = newPartnerId();
    const server = await receiver(ok);
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const previous = createEndpointSecretCipher({ NODE_ENV: 'test', WEBHOOK_SECRET_KEY: PREVIOUS_KEY, WEBHOOK_SECRET_KEY_ID: PREVIOUS_KEY_ID });
    await ctx.db('webhook_endpoints').where({ id: endpoint.id }).update({ secret: previous.encrypt(endpoint.id, endpoint.secret) });
    expect(await storedSecret(endpoint.id)).toMatch(/^v1:k2025:/);

    await deliverOne(partner, endpoint, server);
    await waitFor(async () => (await storedSecret(endpoint.id)).startsWith('v1:dev:'), 're-encryption under the current key');
    await deliverOne(partner, endpoint, server);
  });

  it('delivers with a plaintext secret from before encryption, and a starting worker encrypts such rows', async () => {
    const partner = newPartnerId();
    const server = await receiver(ok);
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const quiet = await registerEndpoint(ctx.app, partner, `${server.url}/quiet`, ['delivery.failed']);
    await ctx.db('webhook_endpoints').whereIn('id', [endpoint.id, quiet.id]).update({ secret: ctx.db.raw('case when id = ? then ? else ? end', [endpoint.id, endpoint.secret, quiet.secret]) });

    await deliverOne(partner, endpoint, server);
    ctx.startDelivery(); // its start-up pass rewrites every stale row, including endpoints that receive nothing
    await waitFor(async () => (await storedSecret(quiet.id)).startsWith('v1:dev:'), 'the quiet endpoint re-encrypted');
    await waitFor(async () => (await storedSecret(endpoint.id)).startsWith('v1:dev:'), 'the used endpoint re-encrypted');
    await deliverOne(partner, endpoint, server);
  });
});
