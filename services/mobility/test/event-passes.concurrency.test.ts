import { createTestContext, type TestContext } from './helpers/context';
import { organizer, programWithPasses, rideToVenue } from './factories/event-passes';
import { randomCentre } from './factories/fleet';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('event passes under concurrent ride requests', () => {
  it('100 concurrent redemptions against a budget for 10 rides: exactly 10 succeed and the budget never goes below zero', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 100, { max_fare_per_ride: 500, budget: 5000, rides_per_pass: 1 });

    const answers = await Promise.all(passes.map((pass) => api.post('/api/v1/rides', rideToVenue(venue, pass.code))));

    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created).toHaveLength(10);
    expect(refused.map((res) => [res.status, res.body.code])).toEqual(Array.from({ length: 90 }, () => [422, 'event_pass_budget_exhausted']));
    for (const res of created) expect(res.body.fare.covered_by_pass).toBe(500);

    const shown = (await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body;
    expect(shown.usage).toEqual({ passes_issued: 100, rides_redeemed: 10, amount_spent: 0, amount_reserved: 5000, budget_left: 0 });
    const redemptions = await ctx.db('event_pass_redemptions').where({ program_id: program.id });
    expect(redemptions.reduce((sum, row) => sum + row.amount, 0)).toBe(5000);
    expect(new Set(redemptions.map((row) => row.ride_id))).toEqual(new Set(created.map((res) => res.body.id)));
    // Only the passes that got a ride were used; the refused kept theirs.
    expect(Number((await ctx.db('event_passes').where({ program_id: program.id }).sum({ n: 'rides_used' }).first())!.n)).toBe(10);
    const exhausted = await ctx.db('outbox_events').where({ object_id: program.id, type: 'event_pass_program.budget_exhausted' });
    expect(exhausted).toHaveLength(1);
  });

  it('the same pass in concurrent ride requests never gives more than rides_per_pass rides', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 2, { max_fare_per_ride: 100, rides_per_pass: 2 });
    const [pass, twin] = passes;

    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post('/api/v1/rides', rideToVenue(venue, i % 2 ? pass!.code : twin!.code))));

    const created = answers.filter((res) => res.status === 201);
    expect(created).toHaveLength(4);
    expect(answers.filter((res) => res.status !== 201).map((res) => res.body.code)).toEqual(Array.from({ length: 16 }, () => 'event_pass_used_up'));
    const listed = (await api.get(`/api/v1/event-pass-programs/${program.id}/passes`).expect(200)).body.data;
    expect(listed.map((p: { rides_used: number; rides_left: number }) => [p.rides_used, p.rides_left])).toEqual([
      [2, 0],
      [2, 0],
    ]);
    expect((await ctx.db('event_pass_redemptions').where({ program_id: program.id })).length).toBe(4);
  });

  it('the database itself refuses an over-committed budget or an over-used pass (CHECK constraints)', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 1, { budget: 1000, rides_per_pass: 1 });
    await expect(ctx.db('event_pass_programs').where({ id: program.id }).update({ budget_reserved: 1001 })).rejects.toThrow(/event_pass_programs_budget_within/);
    await expect(ctx.db('event_passes').where({ id: passes[0]!.id }).update({ rides_used: 2 })).rejects.toThrow(/event_passes_rides_within/);
  });
});
