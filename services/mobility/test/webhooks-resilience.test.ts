import request from 'supertest';
import { clearRedisPrefix, sendJson, startFakeServer, waitFor, waitForDrained } from '@platform/test-kit';
import { createOutboxRelay } from '../src/features/webhook-dispatch/outbox-relay';
import { createWebhookSender } from '../src/features/webhook-dispatch/webhook-sender';
import { createIsolatedContext, insertEvents, newPartnerId, PARTNER_HEADER, registerEndpoint, silentLogger, type IsolatedContext } from './helpers/webhooks';

/** For the one check that something must not happen before a commit: there is no event to wait for. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let ctx: IsolatedContext;
const servers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  ctx = await createIsolatedContext({ WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_MAX_ATTEMPTS: '5' });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

async function okReceiver() {
  const server = await startFakeServer((_req, res) => sendJson(res, 200, {}));
  servers.push(server);
  return server;
}

describe('webhook delivery survives losing Redis', () => {
  it('delivers events whose jobs were flushed from Redis once the relay runs again', async () => {
    const partner = newPartnerId();
    const server = await okReceiver();
    await registerEndpoint(ctx.app, partner, server.url);
    const events = await insertEvents(ctx.db, partner, Array.from({ length: 50 }, () => 'delivery.delivered'));

    // Relayed (rows written, jobs queued) while no worker runs; then every key of this prefix is lost.
    const relay = createOutboxRelay({ db: ctx.db, queue: ctx.queue, logger: silentLogger, maxAttempts: 5 });
    expect(await relay.runOnce()).toMatchObject({ dispatchedEvents: 50, enqueuedMessages: 50 });
    expect((await ctx.queue.getJobCounts('wait')).wait).toBeGreaterThan(0); // one batch job for the endpoint
    await clearRedisPrefix(ctx.config.REDIS_PREFIX);
    expect((await ctx.queue.getJobCounts('wait')).wait).toBe(0);

    const delivery = ctx.startDelivery();
    await waitForDrained(ctx.queue);
    expect(server.requests).toHaveLength(0); // the jobs really are gone

    expect(await delivery.relay.runOnce({ sweepOlderThanMs: 0 })).toMatchObject({ dispatchedEvents: 0, requeuedMessages: 50 });
    await waitFor(() => new Set(server.requests.map((r) => r.headers['x-service-event-id'])).size === 50, 'all 50 events delivered');
    expect(new Set(server.requests.map((r) => r.headers['x-service-event-id']))).toEqual(new Set(events.map((e) => e.id)));
    await waitFor(async () => {
      const rows = await ctx.db('webhook_deliveries').whereIn('event_id', events.map((e) => e.id)).select('status');
      return rows.length === 50 && rows.every((r) => r.status === 'succeeded');
    }, 'every delivery row succeeded');
  });

  it('gives up on an endpoint that does not answer within WEBHOOK_TIMEOUT_MS, logs it, and retries', async () => {
    const partner = newPartnerId();
    let calls = 0;
    const server = await startFakeServer((_req, res) => {
      calls += 1;
      if (calls > 1) sendJson(res, 200, {}); // the first request hangs
    });
    servers.push(server);
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    await insertEvents(ctx.db, partner, ['ride.no_drivers_available']);
    // The worker started by the first test is still running; start one if this test runs alone.
    if ((await ctx.queue.getWorkersCount()) === 0) ctx.startDelivery();

    const delivered = await waitFor(async () => {
      const res = await request(ctx.app).get(`/api/v1/webhooks/${endpoint.id}/deliveries`).set(PARTNER_HEADER, partner).expect(200);
      return res.body.data.find((d: { status: string }) => d.status === 'succeeded');
    }, 'the delivery to succeed');
    expect(delivered.attempt_log.map((a: { status_code: number | null; error: string | null }) => [a.status_code, a.error])).toEqual([
      [null, 'timed out after 1000 ms'],
      [200, null],
    ]);
    expect(delivered.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(950);
  });
});

describe('waking the relay', () => {
  it('relays as soon as an outbox transaction commits (Postgres NOTIFY), not at the next poll', async () => {
    const slow = await createIsolatedContext({ WEBHOOK_RELAY_INTERVAL_MS: '600000' }); // polls every 10 minutes
    try {
      const server = await okReceiver();
      const partner = newPartnerId();
      await registerEndpoint(slow.app, partner, server.url);
      slow.startDelivery();
      const listening = async () =>
        Number((await slow.db.raw(`select count(*) as n from pg_stat_activity where datname = current_database() and query = 'LISTEN mobility_outbox_events'`)).rows[0].n) === 1;
      await waitFor(listening, 'the worker to LISTEN');
      await sleep(300); // the relay's start-up run is over: only a notification can bring what follows
      const [event] = await slow.db.transaction(async (trx) => {
        const bodies = await insertEvents(trx, partner, ['ride.accepted', 'ride.arrived']);
        await sleep(100); // not committed yet: nothing may be sent
        expect(server.requests).toHaveLength(0);
        return bodies;
      });
      await waitFor(() => server.requests.length === 2, 'the commit to wake the relay');
      expect(server.requests.map((r) => r.headers['x-service-event-id'])).toContain(event!.id);
    } finally {
      await slow.close();
    }
  });
});

describe('delivery-time address check', () => {
  it('refuses to connect when the target resolves to a forbidden address, even if it was accepted before', async () => {
    const server = await okReceiver();
    const port = new URL(server.url).port;
    const sender = createWebhookSender({ allowHttp: true, allowPrivate: false }, 1000);
    try {
      const byName = await sender.send(`http://localhost:${port}/hooks`, '{}', { 'Content-Type': 'application/json' });
      // The error goes to the partner-visible attempt log: one text for every refusal, never the address.
      expect(byName).toMatchObject({ statusCode: null, error: 'refused to connect to localhost: the webhook URL was refused' });
      expect(byName.forbiddenAddress).toMatch(/^(127\.0\.0\.1|::1)$/); // for the worker's log only
      const byAddress = await sender.send(`http://127.0.0.1:${port}/hooks`, '{}', { 'Content-Type': 'application/json' });
      expect(byAddress).toMatchObject({ statusCode: null, error: 'refused to connect to 127.0.0.1: the webhook URL was refused' });
      // A host that does not resolve reads the same as a forbidden one.
      const unresolvable = await sender.send('http://no-such-host.invalid/hooks', '{}', { 'Content-Type': 'application/json' });
      expect(unresolvable).toMatchObject({ statusCode: null, error: 'refused to connect to no-such-host.invalid: the webhook URL was refused' });
      const plainHttp = await createWebhookSender({ allowHttp: false, allowPrivate: true }, 1000).send(`http://127.0.0.1:${port}/`, '{}', {});
      expect(plainHttp).toMatchObject({ statusCode: null, error: 'must be an https:// URL' });
      expect(server.requests).toHaveLength(0);
    } finally {
      sender.close();
    }
  });
});
