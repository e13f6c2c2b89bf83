import { createTestContext, type TestContext } from './helpers/context';
import { fireTimer } from './helpers/timers';
import { createPartnerKey } from './factories/auth';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { eventually } from '@platform/test-kit';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
let partner: ReturnType<typeof partnerApi>;
beforeAll(async () => {
  // Its own queue and index (a sub-prefix of the run's prefix), so this file's worker runs only this file's timers.
  // Timers far in the future: each test fires the one it is about (fireTimer), so none fires early on a slow machine.
  ctx = createTestContext({ REDIS_PREFIX: `${process.env.TEST_REDIS_PREFIX}.timers`, DISPATCH_OFFER_TTL_S: '60', DISPATCH_TIMEOUT_S: '120' });
  ctx.startDispatchWorker();
  partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
});
afterAll(() => ctx.close());

describe('dispatch timers (BullMQ worker)', () => {
  it('passes an unanswered offer to the next nearest driver when it expires', async () => {
    const centre = randomCentre();
    const sleepy = await onlineDriver(ctx, offset(centre, 100, 0));
    const next = await onlineDriver(ctx, offset(centre, 700, 0));
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    const [first] = await sleepy.app.offers();
    expect(first!.ride_id).toBe(ride.body.id);
    await fireTimer(ctx, 'offer-expiry', first!.id);

    const [second] = await eventually(async () => {
      const offers = await next.app.offers();
      expect(offers).toHaveLength(1);
      return offers;
    });
    expect(second!.ride_id).toBe(ride.body.id);
    expect(await sleepy.app.offers()).toEqual([]);
    expect((await ctx.db('dispatch_offers').where({ id: first!.id }).first()).status).toBe('expired');
    await sleepy.app.post(`/offers/${first!.id}/accept`).expect(409);
    const accepted = await next.app.post(`/offers/${second!.id}/accept`).expect(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', driver: { id: next.id } });
  });

  it('ends the search with no_drivers_available when nobody accepts in time, with its outbox event', async () => {
    const centre = randomCentre();
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    await fireTimer(ctx, 'search-timeout', ride.body.id);
    const ended = await eventually(async () => {
      const res = await partner.get(`/api/v1/rides/${ride.body.id}`).expect(200);
      expect(res.body.status).toBe('no_drivers_available');
      return res.body;
    });
    expect(ended).toMatchObject({ driver: null, sequence: 1, cancelled_by: null });
    const events = await ctx.db('outbox_events').where({ object_id: ride.body.id });
    expect(events.map((e) => e.type)).toEqual(['ride.no_drivers_available']);
    expect(events[0].body.data).toEqual(ended);
    await partner.post(`/api/v1/rides/${ride.body.id}/cancel`).expect(409);
  });

  it('keeps its timers when the API that created the ride is gone (timers live in Redis, not in the API process)', async () => {
    const api = createTestContext({ REDIS_PREFIX: ctx.config.REDIS_PREFIX, DISPATCH_OFFER_TTL_S: '60', DISPATCH_TIMEOUT_S: '120' });
    const otherPartner = partnerApi(api, (await createPartnerKey(api)).token);
    const ride = await otherPartner.post('/api/v1/rides', rideBody(randomCentre())).expect(201);
    await api.close(); // the API "restarts": nothing of it is left but what it wrote to Postgres and Redis
    await fireTimer(ctx, 'search-timeout', ride.body.id);
    await eventually(async () => {
      const row = await ctx.db('rides').where({ id: ride.body.id }).first();
      expect(row.status).toBe('no_drivers_available');
    });
  });

  it('finds a driver who comes online while the ride is still searching', async () => {
    const centre = randomCentre();
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    const late = await onlineDriver(ctx, offset(centre, 300, 0));
    await fireTimer(ctx, 'search-retry', ride.body.id);
    const [offer] = await eventually(async () => {
      const offers = await late.app.offers();
      expect(offers).toHaveLength(1);
      return offers;
    });
    expect(offer!.ride_id).toBe(ride.body.id);
  });

  it('leaves no search timers waiting once a ride is cancelled, or accepted (with its offer expiry)', async () => {
    const timersOf = async (...subjects: string[]) =>
      (await ctx.services.timers.queue.getDelayed()).filter((job) => subjects.includes(job.data.offerId ?? job.data.id)).map((job) => job.name).sort();
    const waiting = await partner.post('/api/v1/rides', rideBody(randomCentre())).expect(201);
    expect(await timersOf(waiting.body.id)).toEqual(['search-retry', 'search-timeout']);
    await partner.post(`/api/v1/rides/${waiting.body.id}/cancel`).expect(200);
    expect(await timersOf(waiting.body.id)).toEqual([]);

    const centre = randomCentre();
    const driver = await onlineDriver(ctx, offset(centre, 100, 0));
    const offered = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    const [offer] = await driver.app.offers();
    expect(await timersOf(offered.body.id, offer!.id)).toEqual(['offer-expiry', 'search-retry', 'search-timeout']);
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    expect(await timersOf(offered.body.id, offer!.id)).toEqual([]);
  });
});
