import request from 'supertest';
import { createIsolatedContext, insertEvents, newPartnerId, PARTNER_HEADER, registerEndpoint, type IsolatedContext } from './helpers/webhooks';

// `recover` with include_succeeded once re-queued 30 days of events on every call. No delivery worker runs
// here, so whatever a recover queues stays pending.
let ctx: IsolatedContext;
beforeAll(async () => {
  ctx = await createIsolatedContext();
});
afterAll(() => ctx.close());

const recover = (partner: string, id: string, body: object) => request(ctx.app).post(`/api/v1/webhooks/${id}/recover`).set(PARTNER_HEADER, partner).send(body);
const messagesOf = async (endpointId: string) => ctx.db('webhook_deliveries').where({ endpoint_id: endpointId });
const since = () => new Date(Date.now() - 60_000).toISOString();

describe('POST /api/v1/webhooks/{id}/recover coalesces', () => {
  it('answers 409 recover_in_progress while the messages an earlier recover queued are pending, and queues nothing more', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/hooks');
    await insertEvents(ctx.db, partner, ['ride.accepted', 'ride.completed', 'ride.cancelled']);
    const first = await recover(partner, endpoint.id, { since: since(), include_succeeded: true }).expect(202);
    expect(first.body.queued).toBe(3);

    const second = await recover(partner, endpoint.id, { since: since(), include_succeeded: true }).expect(409);
    expect(second.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(second.body.code).toBe('recover_in_progress');
    expect(await messagesOf(endpoint.id)).toHaveLength(3);
    expect((await ctx.queue.getJobCounts('waiting', 'delayed', 'active')).waiting).toBeGreaterThanOrEqual(3);
  });

  it('allows one recover per partner and mode per minute, whichever endpoint: 429 rate_limited with Retry-After; other partners are not affected', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/quiet');
    const other = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/other');
    expect((await recover(partner, endpoint.id, { since: since() }).expect(202)).body.queued).toBe(0);
    // Another endpoint of the same partner, or a brand-new one, opens no new interval.
    const fresh = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/fresh');
    for (const id of [endpoint.id, other.id, fresh.id]) {
      const refused = await recover(partner, id, { since: since() }).expect(429);
      expect(refused.body.code).toBe('rate_limited');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    const stranger = newPartnerId();
    const theirs = await registerEndpoint(ctx.app, stranger, 'http://127.0.0.1:9/theirs');
    await recover(stranger, theirs.id, { since: since() }).expect(202);
  });

  it('never replays events from before the endpoint was made, and says from when it replayed', async () => {
    const partner = newPartnerId();
    await insertEvents(ctx.db, partner, ['ride.accepted', 'ride.completed', 'ride.cancelled']);
    const endpoint = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/new');
    const later = await insertEvents(ctx.db, partner, ['ride.completed']);
    const monthAgo = new Date(Date.now() - 29 * 86400_000).toISOString();
    const res = await recover(partner, endpoint.id, { since: monthAgo, include_succeeded: true }).expect(202);
    expect(res.body.queued).toBe(1);
    const created = await ctx.db('webhook_endpoints').where({ id: endpoint.id }).first('created_at');
    expect(res.body.since).toBe((created.created_at as Date).toISOString());
    expect((await messagesOf(endpoint.id)).map((row) => row.event_id)).toEqual([later[0]!.id]);
  });

  it('never queues again a message already pending for the endpoint', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, 'http://127.0.0.1:9/pending');
    const [pending, missed] = await insertEvents(ctx.db, partner, ['ride.accepted', 'ride.completed']);
    // The relay's own message for the first event, still waiting for its send.
    await ctx.db('webhook_deliveries').insert({ id: 'whd_relayedpending0001', event_id: pending!.id, endpoint_id: endpoint.id, partner_id: partner, max_attempts: 5 });
    const res = await recover(partner, endpoint.id, { since: since(), include_succeeded: true }).expect(202);
    expect(res.body.queued).toBe(1);
    const rows = await messagesOf(endpoint.id);
    expect(rows.map((r) => r.event_id).sort()).toEqual([pending!.id, missed!.id].sort());
  });
});
