import { createTestContext, type TestContext } from './helpers/context';
import { organizer, programWithPasses, rideToVenue } from './factories/event-passes';
import { randomCentre } from './factories/fleet';
import { eventually } from '@platform/test-kit';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ REDIS_PREFIX: `${process.env.TEST_REDIS_PREFIX}.event-pass-timers`, DISPATCH_OFFER_TTL_S: '1', DISPATCH_TIMEOUT_S: '3' });
  ctx.startDispatchWorker();
});
afterAll(() => ctx.close());

describe('event passes and the dispatch timers', () => {
  it('a ride that finds no driver releases its reservation and gives the pass its ride back', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 1, { max_fare_per_ride: 700, rides_per_pass: 1 });
    const ride = await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);

    await eventually(async () => {
      expect((await api.get(`/api/v1/rides/${ride.body.id}`).expect(200)).body.status).toBe('no_drivers_available');
    });
    expect((await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body.usage).toEqual({
      passes_issued: 1,
      rides_redeemed: 0,
      amount_spent: 0,
      amount_reserved: 0,
      budget_left: 1_000_000,
    });
    const events = await ctx.db('outbox_events').where({ object_id: program.id }).orderBy('sequence');
    expect(events.map((e) => e.type)).toEqual(['event_pass.redeemed', 'event_pass.released']);
    expect(events[1].body.data).toMatchObject({ ride_id: ride.body.id, ride_status: 'no_drivers_available', covered: { amount: 700 }, pass: { rides_left: 1 } });
  });
});
