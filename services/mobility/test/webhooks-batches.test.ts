import request from 'supertest';
import { sendJson, startFakeServer, waitFor, waitForDrained } from '@platform/test-kit';
import { createOutboxRelay } from '../src/features/webhook-dispatch/outbox-relay';
import { enqueueWebhookMessageLater } from '../src/features/webhook-dispatch/webhook-queue';
import { createIsolatedContext, insertEvents, newPartnerId, PARTNER_HEADER, registerEndpoint, silentLogger, type IsolatedContext } from './helpers/webhooks';

let ctx: IsolatedContext;
const servers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  ctx = await createIsolatedContext({ WEBHOOK_BACKOFF_MS: '200', WEBHOOK_MAX_ATTEMPTS: '5' });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

const eventIdsOf = (requests: { headers: Record<string, unknown> }[]) => requests.map((r) => String(r.headers['x-service-event-id']));

describe('a backlog sent in batch jobs', () => {
  it('sends each message once when a second job for every message waits beside its batch (the claim lease)', async () => {
    const server = await startFakeServer((_req, res) => sendJson(res, 200, {}));
    servers.push(server);
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    const events = await insertEvents(ctx.db, partner, Array.from({ length: 120 }, () => 'ride.cancelled'));
    // The relay queues the backlog (batch jobs) while no worker runs; then every message gets a job of its own too,
    // as the sweep adds for a message whose batch waits long.
    const relay = createOutboxRelay({ db: ctx.db, queue: ctx.queue, logger: silentLogger, maxAttempts: 5 });
    expect(await relay.runOnce()).toMatchObject({ dispatchedEvents: 120, enqueuedMessages: 120 });
    const rows: { id: string; event_id: string }[] = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).select('id', 'event_id');
    for (const row of rows) await enqueueWebhookMessageLater(ctx.queue, endpoint.id, { deliveryId: row.id, eventId: row.event_id }, 0);

    ctx.startDelivery();
    ctx.startDelivery(); // two workers: the two jobs of one message may well run at the same time
    await waitFor(async () => {
      const done = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' }).count<{ n: string }[]>('* as n');
      return Number(done[0]!.n) === 120;
    }, 'every message to succeed');
    await waitForDrained(ctx.queue);

    const received = eventIdsOf(server.requests);
    expect(received).toHaveLength(120);
    expect(new Set(received)).toEqual(new Set(events.map((e) => e.id)));
    const attempts = await ctx.db('webhook_attempts').whereIn('delivery_id', rows.map((r) => r.id)).count<{ n: string }[]>('* as n');
    expect(Number(attempts[0]!.n)).toBe(120);
  });

  it('retries a failed message of a batch on its own and sends the others once', async () => {
    let failed = false;
    const server = await startFakeServer((req, res) => {
      if (!failed) {
        failed = true;
        return sendJson(res, 500, { error: 'first answer fails' });
      }
      sendJson(res, 200, {});
    });
    servers.push(server);
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, server.url);
    await insertEvents(ctx.db, partner, Array.from({ length: 30 }, () => 'ride.cancelled'));
    const relay = createOutboxRelay({ db: ctx.db, queue: ctx.queue, logger: silentLogger, maxAttempts: 5 });
    await relay.runOnce();
    if ((await ctx.queue.getWorkersCount()) === 0) ctx.startDelivery();

    const log = await waitFor(async () => {
      const res = await request(ctx.app).get(`/api/v1/webhooks/${endpoint.id}/deliveries?limit=100`).set(PARTNER_HEADER, partner).expect(200);
      const data = res.body.data as { status: string; attempt_log: { status_code: number | null }[] }[];
      return data.length === 30 && data.every((d) => d.status === 'succeeded') ? data : undefined;
    }, 'all 30 deliveries to succeed');
    const codes = log.map((d) => d.attempt_log.map((a) => a.status_code).sort());
    expect(codes.filter((c) => c.length === 2)).toEqual([[200, 500]]);
    expect(codes.filter((c) => c.length === 1)).toHaveLength(29);
    expect(eventIdsOf(server.requests)).toHaveLength(31);
  });
});
