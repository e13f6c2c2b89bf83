import { createTestContext, type TestContext } from './helpers/context';
import { fireTimer } from './helpers/timers';
import { createPartnerKey } from './factories/auth';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { offset, randomCentre } from './factories/fleet';
import { eventually } from '@platform/test-kit';
import { partnerApi } from './factories/rides';

let ctx: TestContext;
let partner: ReturnType<typeof partnerApi>;
beforeAll(async () => {
  // Its own queue and index (a sub-prefix of the run's prefix), so this file's worker runs only this file's timers.
  // Timers far in the future: each test fires the one it is about (fireTimer), so none fires early on a slow machine.
  ctx = createTestContext({ REDIS_PREFIX: `${process.env.TEST_REDIS_PREFIX}.delivery-timers`, DISPATCH_OFFER_TTL_S: '60', DISPATCH_TIMEOUT_S: '120' });
  ctx.startDispatchWorker();
  partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
});
afterAll(() => ctx.close());

describe('delivery dispatch timers (BullMQ worker)', () => {
  it('fails a delivery nobody accepted in time with failure_reason no_couriers_available and a delivery.failed event', async () => {
    const spot = randomCentre();
    const sleepy = await onlineCourier(ctx, offset(spot, 100, 0)); // offered, never answers
    const created = await partner.post('/api/v1/deliveries', deliveryBody(spot)).expect(201);
    await fireTimer(ctx, 'search-timeout', created.body.id);
    const failed = await eventually(async () => {
      const res = await partner.get(`/api/v1/deliveries/${created.body.id}`).expect(200);
      expect(res.body.status).toBe('failed');
      return res.body;
    });
    expect(failed).toMatchObject({ failure_reason: 'no_couriers_available', courier: null, cancelled_by: null, sequence: 1 });
    const events = await ctx.db('outbox_events').where({ object_id: created.body.id });
    expect(events.map((e) => e.type)).toEqual(['delivery.failed']);
    expect(events[0].body.data).toEqual(failed);
    await eventually(async () => expect((await ctx.db('drivers').where({ id: sleepy.id }).first()).current_job_id).toBeNull());
    await partner.post(`/api/v1/deliveries/${created.body.id}/cancel`).expect(409);
  });

  it('passes an unanswered delivery offer on to the next nearest courier', async () => {
    const spot = randomCentre();
    const sleepy = await onlineCourier(ctx, offset(spot, 100, 0));
    const next = await onlineCourier(ctx, offset(spot, 700, 0));
    const created = await partner.post('/api/v1/deliveries', deliveryBody(spot)).expect(201);
    const offered = await sleepy.app.offers();
    expect(offered.map((o) => o.delivery_id)).toEqual([created.body.id]);
    await fireTimer(ctx, 'offer-expiry', offered[0]!.id);
    const [offer] = await eventually(async () => {
      const offers = await next.app.offers();
      expect(offers).toHaveLength(1);
      return offers;
    });
    const accepted = await next.app.post(`/offers/${offer!.id}/accept`).expect(200);
    expect(accepted.body).toMatchObject({ id: created.body.id, status: 'courier_assigned', courier: { id: next.id } });
  });
});
