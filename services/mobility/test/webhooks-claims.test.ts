import { sendJson, startFakeServer, waitFor, waitForDrained } from '@platform/test-kit';
import { createOutboxRelay } from '../src/features/webhook-dispatch/outbox-relay';
import { enqueueWebhookMessageLater } from '../src/features/webhook-dispatch/webhook-queue';
import { claimAttempts, recordAttempts, renewClaims } from '../src/features/webhook-dispatch/webhook-messages.repository';
import { createWebhookSender } from '../src/features/webhook-dispatch/webhook-sender';
import { createIsolatedContext, insertEvents, newPartnerId, registerEndpoint, silentLogger, type IsolatedContext } from './helpers/webhooks';

const LEASE_MS = 1000;
const ANSWER_MS = 3000;
/** Fewer than a worker's in-flight cap per endpoint (10), so a worker always has a free slot to send a second copy with. */
const MESSAGES = 6;

let ctx: IsolatedContext;
const servers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  // A claim lease much shorter than one attempt: what a worker starved of CPU for longer than its lease looks like.
  ctx = await createIsolatedContext({ WEBHOOK_CLAIM_LEASE_MS: String(LEASE_MS), WEBHOOK_TIMEOUT_MS: '8000', WEBHOOK_BACKOFF_MS: '200', WEBHOOK_MAX_ATTEMPTS: '5' });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a claim outlasting its lease', () => {
  it('sends each message once when its request takes longer than the lease and other workers hold jobs for it', async () => {
    const server = await startFakeServer(async (_req, res) => {
      await sleep(ANSWER_MS);
      sendJson(res, 200, {});
    });
    servers.push(server);
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const events = await insertEvents(ctx.db, partner, Array.from({ length: MESSAGES }, () => 'ride.cancelled'));
    const relay = createOutboxRelay({ db: ctx.db, queue: ctx.queue, logger: silentLogger, maxAttempts: 5 });
    expect(await relay.runOnce()).toMatchObject({ dispatchedEvents: MESSAGES, enqueuedMessages: MESSAGES });
    const rows: { id: string; event_id: string }[] = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).select('id', 'event_id');
    for (const row of rows) await enqueueWebhookMessageLater(ctx.queue, endpoint.id, { deliveryId: row.id, eventId: row.event_id }, 0);

    ctx.startDelivery();
    ctx.startDelivery(); // two workers, each message in a batch job and a single job: someone always wants it again
    await waitFor(async () => {
      const done = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' }).count<{ n: string }[]>('* as n');
      return Number(done[0]!.n) === MESSAGES;
    }, 'every message to succeed');
    await waitForDrained(ctx.queue);
    await sleep(ANSWER_MS + LEASE_MS); // a second send would be on the wire by now

    const received = server.requests.map((r) => String(r.headers['x-service-event-id']));
    expect(received.sort()).toEqual(events.map((e) => e.id).sort());
    const attempts: { attempt: number; status_code: number }[] = await ctx.db('webhook_attempts').whereIn('delivery_id', rows.map((r) => r.id)).select('attempt', 'status_code');
    expect(attempts.map((a) => a.status_code)).toEqual(Array.from({ length: MESSAGES }, () => 200));
    const left = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).whereNotNull('claimed_until').count<{ n: string }[]>('* as n');
    expect(Number(left[0]!.n)).toBe(0);
  });
});

describe('a holder whose lease ran out', () => {
  it('can neither renew nor move on the claim of the job that took over; its 2xx still counts', async () => {
    const partner = newPartnerId();
    // Subscribed to another type: the running relays dispatch the event without a delivery, the test writes its own.
    const endpoint = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/unused', ['ride.accepted']);
    const [event] = await insertEvents(ctx.db, partner, ['ride.cancelled']);
    const [delivery] = await ctx.db('webhook_deliveries').insert({ id: `whd_${event!.id}`, event_id: event!.id, endpoint_id: endpoint.id, partner_id: partner, max_attempts: 5 }).returning('id');
    const messageId = (delivery as { id: string }).id;

    const [stale] = await claimAttempts(ctx.db, [messageId], 50);
    await sleep(100);
    const [current] = await claimAttempts(ctx.db, [messageId], 60_000);
    expect(stale!.attempt).toBe(1);
    expect(current!.attempt).toBe(2);
    expect(await renewClaims(ctx.db, [stale!, current!], 60_000)).toEqual(new Set([messageId]));

    const failure = { statusCode: 500, durationMs: 5, error: 'HTTP 500', excerpt: null, next: { status: 'pending' as const, retryInMs: 0 } };
    expect(await recordAttempts(ctx.db, [{ ...failure, messageId, claimToken: stale!.claimToken, attempt: 1 }])).toEqual([true]);
    const held = await ctx.db('webhook_deliveries').where({ id: messageId }).first();
    expect(held).toMatchObject({ status: 'pending', attempts: 2, claim_token: current!.claimToken });
    expect(held.claimed_until.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await claimAttempts(ctx.db, [messageId], 60_000)).toEqual([undefined]); // nobody else gets it meanwhile

    await recordAttempts(ctx.db, [{ ...failure, statusCode: 200, error: null, next: { status: 'succeeded' }, messageId, claimToken: stale!.claimToken, attempt: 1 }]);
    expect(await ctx.db('webhook_deliveries').where({ id: messageId }).first()).toMatchObject({ status: 'succeeded', claimed_until: null, claim_token: null });
    const log = await ctx.db('webhook_attempts').where({ delivery_id: messageId }).orderBy('created_at').select('attempt', 'status_code');
    expect(log).toEqual([
      { attempt: 1, status_code: 500 },
      { attempt: 1, status_code: 200 },
    ]);
  });
});

describe('an answer that arrived while the process was not running', () => {
  it('is read as the answer, not counted as a timeout', async () => {
    const timeoutMs = 300;
    const server = await startFakeServer((_req, res) => {
      sendJson(res, 200, { ok: true });
      // The process stops right after the answer is on its socket (a SIGSTOP, a long pause), past the request's timeout.
      setImmediate(() => {
        const until = performance.now() + timeoutMs * 3;
        while (performance.now() < until) {
          // busy: nothing else of this process runs
        }
      });
    });
    servers.push(server);
    const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, timeoutMs);
    try {
      const outcome = await sender.send(server.url, '{}', { 'Content-Type': 'application/json' });
      expect(outcome).toMatchObject({ statusCode: 200, error: null, excerpt: '{"ok":true}' });
      expect(server.requests).toHaveLength(1);
    } finally {
      sender.close();
    }
  });

  it('still times out when no answer comes', async () => {
    const server = await startFakeServer(async (_req, res) => {
      await sleep(1000);
      sendJson(res, 200, {});
    });
    servers.push(server);
    const sender = createWebhookSender({ allowHttp: true, allowPrivate: true }, 200);
    try {
      expect(await sender.send(server.url, '{}', { 'Content-Type': 'application/json' })).toMatchObject({ statusCode: null, error: 'timed out after 200 ms' });
    } finally {
      sender.close();
    }
  });
});
