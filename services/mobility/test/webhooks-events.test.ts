import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { partnerApi } from './factories/rides';
import { insertEvents } from './helpers/webhooks';
import { deleteExpiredEvents, EVENT_RETENTION_LOCK } from '../src/features/webhook-dispatch/event-retention';
import { newId } from '@platform/service-kit/ids';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

async function ageEvent(id: string, days: number) {
  await ctx.db('outbox_events').where({ id }).update({ created_at: ctx.db.raw('now() - make_interval(days => ?)', [days]), dispatched_at: ctx.db.fn.now() });
}

describe('GET /api/v1/events', () => {
  it('lists the partner\'s events of the last 30 days, newest first, as they were sent', async () => {
    const { owner, token } = await createPartnerKey(ctx);
    const [old, first, second] = await insertEvents(ctx.db, owner.org, ['ride.accepted', 'ride.accepted', 'delivery.delivered']);
    await ageEvent(old!.id, 31);
    // Events of one transaction share its timestamp (then the order between them is the ids'): `first` a second earlier.
    await ctx.db('outbox_events').where({ id: first!.id }).update({ created_at: ctx.db.raw("created_at - interval '1 second'") });
    const { owner: stranger } = await createPartnerKey(ctx);
    await insertEvents(ctx.db, stranger.org, ['ride.completed']);

    const res = await partnerApi(ctx, token).get('/api/v1/events').expect(200);
    expect(res.body).toEqual({ data: [expect.objectContaining({ id: second!.id }), expect.objectContaining({ id: first!.id })], has_more: false, next_cursor: null });
    expect(res.body.data[1]).toEqual({ ...first, object_type: 'ride', object_id: first!.data.id });
  });

  it('filters by type and object id, and pages with limit and cursor', async () => {
    const { owner, token } = await createPartnerKey(ctx);
    const events = await insertEvents(ctx.db, owner.org, ['ride.accepted', 'ride.completed', 'ride.completed', 'ride.completed']);
    const api = partnerApi(ctx, token);
    const byType = await api.get('/api/v1/events?type=ride.completed&limit=2').expect(200);
    expect(byType.body.data.map((e: { type: string }) => e.type)).toEqual(['ride.completed', 'ride.completed']);
    expect(byType.body.has_more).toBe(true);
    const next = await api.get(`/api/v1/events?type=ride.completed&limit=2&cursor=${byType.body.next_cursor as string}`).expect(200);
    expect(next.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(next.body.data).toHaveLength(1);
    const seen = [...byType.body.data, ...next.body.data].map((e: { id: string }) => e.id);
    expect(new Set(seen)).toEqual(new Set(events.slice(1).map((e) => e.id)));

    const byObject = await api.get(`/api/v1/events?object_id=${events[0]!.data.id as string}`).expect(200);
    expect(byObject.body.data.map((e: { id: string }) => e.id)).toEqual([events[0]!.id]);
  });

  it('needs webhooks:manage and refuses a bad limit with 422', async () => {
    const { token } = await createPartnerKey(ctx, { scopes: ['rides:read'] });
    const refused = await partnerApi(ctx, token).get('/api/v1/events').expect(403);
    expect(refused.body.code).toBe('insufficient_scope');
    const { token: manager } = await createPartnerKey(ctx);
    await partnerApi(ctx, manager).get('/api/v1/events?limit=0').expect(422);
    await partnerApi(ctx, manager).get('/api/v1/events?limit=1000').expect(422);
  });
});

describe('event retention job', () => {
  it('deletes events older than 30 days with their messages and attempt logs, and keeps younger ones', async () => {
    const { owner } = await createPartnerKey(ctx);
    const [expired, kept, undispatched] = await insertEvents(ctx.db, owner.org, ['ride.accepted', 'ride.accepted', 'ride.accepted']);
    await ageEvent(expired!.id, 31);
    await ageEvent(kept!.id, 29);
    await ctx.db('outbox_events').where({ id: undispatched!.id }).update({ created_at: ctx.db.raw("now() - interval '40 days'") }); // never relayed
    const endpointId = newId('whe');
    await ctx.db('webhook_endpoints').insert({ id: endpointId, partner_id: owner.org, url: 'https://93.184.215.14/h', events: ['ride.accepted'], secret: 'whsec_x' });
    const [oldMessage, keptMessage] = [newId('whd'), newId('whd')];
    await ctx.db('webhook_deliveries').insert([
      { id: oldMessage, event_id: expired!.id, endpoint_id: endpointId, partner_id: owner.org, max_attempts: 3 },
      { id: keptMessage, event_id: kept!.id, endpoint_id: endpointId, partner_id: owner.org, max_attempts: 3 },
    ]);
    await ctx.db('webhook_attempts').insert([
      { delivery_id: oldMessage, attempt: 1, duration_ms: 5, created_at: ctx.db.raw("now() - interval '31 days'") },
      { delivery_id: keptMessage, attempt: 1, duration_ms: 5, created_at: ctx.db.raw("now() - interval '31 days'") },
      { delivery_id: keptMessage, attempt: 2, duration_ms: 5 },
    ]);

    const result = await deleteExpiredEvents(ctx.db);
    expect(result).toMatchObject({ ran: true });
    expect(await ctx.db('outbox_events').whereIn('id', [expired!.id, kept!.id, undispatched!.id]).pluck('id')).toEqual(expect.arrayContaining([kept!.id, undispatched!.id]));
    expect(await ctx.db('outbox_events').where({ id: expired!.id }).first()).toBeUndefined();
    expect(await ctx.db('webhook_deliveries').where({ endpoint_id: endpointId }).pluck('id')).toEqual([keptMessage]);
    expect(await ctx.db('webhook_attempts').whereIn('delivery_id', [oldMessage, keptMessage]).pluck('attempt')).toEqual([2]);
  });

  it('does not run while another worker holds its lock', async () => {
    await ctx.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [EVENT_RETENTION_LOCK]);
      expect(await deleteExpiredEvents(ctx.db)).toEqual({ ran: false, reason: 'another worker is running it' });
    });
  });
});
