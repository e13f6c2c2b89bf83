import { createTestContext, type TestContext } from './helpers/context';
import { fireTimer } from './helpers/timers';
import { createPartnerKey } from './factories/auth';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { eventually } from '@platform/test-kit';
import { partnerApi, rideBody } from './factories/rides';
import { SearchRetries } from '../src/features/dispatch/search-retries';
import type { JobKind } from '../src/features/dispatch/dispatch.types';

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
    const timersOf = async (...subjects: string[]) => {
      const delayed = (await ctx.services.timers.queue.getDelayed()).filter((job) => subjects.includes(job.data.offerId ?? job.data.id)).map((job) => job.name);
      const retries = (await Promise.all(subjects.map((id) => ctx.services.timers.retries.dueAt(id)))).filter((due) => due !== null).map(() => 'search-retry');
      return [...delayed, ...retries].sort();
    };
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

  it('keeps one search retry per waiting ride, which each look moves on, and drops it once the search window has ended', async () => {
    const centre = randomCentre();
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    const retries = ctx.services.timers.retries;
    const first = await retries.dueAt(ride.body.id);
    expect(first).toBeGreaterThan(Date.now());
    // Scheduling again moves the one entry rather than adding a second.
    const before = await retries.count();
    await ctx.services.timers.searchRetry('ride', ride.body.id, 60_000);
    expect(await retries.count()).toBe(before);
    // A look that finds nobody in range schedules the next one (the sweeper took it at 0, under a 30 s lease).
    await fireTimer(ctx, 'search-retry', ride.body.id);
    const next = await eventually(async () => {
      const due = await retries.dueAt(ride.body.id);
      expect(due).not.toBe(0);
      return due!;
    });
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThan(Date.now() + 30_000);
    // A window that has ended: the look schedules nothing, and the sweep drops the entry.
    const pickup = { lat: centre.lat, lng: centre.lng };
    await ctx.services.timers.searchRetry('ride', ride.body.id, 0, { partnerId: 'org_gone', fleetKind: 'driver', tier: 'economy', pickup, until: Date.now() - 1 });
    await eventually(async () => expect(await retries.dueAt(ride.body.id)).toBeNull());
    expect((await partner.get(`/api/v1/rides/${ride.body.id}`).expect(200)).body.status).toBe('pending');
  });

  it('hands each due retry to one sweep at a time (a lease), and keeps those a look rescheduled', async () => {
    // A set of its own (no sweeper runs on it), so this test alone takes its retries.
    const retries = new SearchRetries(ctx.redis, `${ctx.config.REDIS_PREFIX}.lease`);
    const pickup = { lat: 6.5, lng: 3.4 };
    const window = { partnerId: 'org_lease', fleetKind: 'driver' as const, tier: 'economy' as const, pickup, until: Date.now() + 60_000 };
    await retries.schedule('delivery', 'dlv_a', 0);
    await retries.schedule('ride', 'ride_b', 0, window);
    await retries.schedule('ride', 'ride_later', 3_600_000);
    await retries.schedule('ride', 'ride_b', 0); // without a window: the stored one stays
    const taken = await retries.takeDue(500, 30_000);
    expect(taken.retries).toEqual([{ kind: 'delivery', id: 'dlv_a' }, { kind: 'ride', id: 'ride_b', search: window }]);
    for (const id of ['dlv_a', 'ride_b']) expect(await retries.dueAt(id)).toBe(taken.leaseUntil);
    expect((await retries.takeDue(500, 30_000)).retries).toEqual([]); // held by the first sweep's lease
    await retries.schedule('ride', 'ride_b', 5_000); // the look at ride_b scheduled its next one
    await retries.settle(['dlv_a', 'ride_b'], taken.leaseUntil);
    expect(await retries.dueAt('dlv_a')).toBeNull();
    expect(await retries.dueAt('ride_b')).toBeGreaterThan(Date.now());
    expect(await retries.count()).toBe(2);
    await Promise.all(['ride_b', 'ride_later'].map((id) => retries.remove(id)));
    expect(await retries.count()).toBe(0);
  });

  it('keeps a retry whose look failed, due again once its lease ends, rather than dropping it', async () => {
    const retries = ctx.services.timers.retries;
    const id = `ride_failing_${Date.now().toString(36)}`;
    // A kind no handler serves and no window: the look throws (no dispatch handler), as a look that lost Postgres would.
    await retries.schedule('parcel' as JobKind, id, 0);
    const leased = await eventually(async () => {
      const due = await retries.dueAt(id);
      expect(due).toBeGreaterThan(Date.now() + 20_000);
      return due;
    });
    // Still there, under its 30 s lease, a sweep later.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await retries.dueAt(id)).toBe(leased);
    await retries.remove(id);
  });
});
