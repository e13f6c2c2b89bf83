import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { organizer, type Organizer, programBody, programWithPasses, rideFromVenue, rideToVenue } from './factories/event-passes';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const CODE = /^EVT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{5}$/;

describe('event pass programs', () => {
  it('need the event_passes scopes: write to create and change, read to look', async () => {
    const venue = randomCentre();
    const none = partnerApi(ctx, (await createPartnerKey(ctx, { scopes: ['rides:write'] })).token);
    expect((await none.post('/api/v1/event-pass-programs', programBody(venue)).expect(403)).body.code).toBe('insufficient_scope');
    const reader = partnerApi(ctx, (await createPartnerKey(ctx, { scopes: ['event_passes:read'] })).token);
    await reader.post('/api/v1/event-pass-programs', programBody(venue)).expect(403);
    expect((await reader.get('/api/v1/event-pass-programs').expect(200)).body).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('creates a program, shows it with zero usage, lists it to its organizer only', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const created = await api.post('/api/v1/event-pass-programs', programBody(venue, { applies_to: 'to_venue' })).expect(201);
    expect(created.body).toMatchObject({
      status: 'open',
      venue: { ...venue, radius_m: 500, address: 'Main Hall' },
      applies_to: 'to_venue',
      tiers: ['economy', 'comfort'],
      max_fare_per_ride: 100_000,
      budget: 1_000_000,
      currency: 'NGN',
      rides_per_pass: 2,
      usage: { passes_issued: 0, rides_redeemed: 0, amount_spent: 0, amount_reserved: 0, budget_left: 1_000_000 },
      closed_at: null,
    });
    expect(created.body.id).toMatch(/^evp_/);
    expect((await api.get(`/api/v1/event-pass-programs/${created.body.id}`).expect(200)).body).toEqual(created.body);
    expect((await api.get('/api/v1/event-pass-programs').expect(200)).body.data).toEqual([created.body]);

    const other = await organizer(ctx);
    await other.api.get(`/api/v1/event-pass-programs/${created.body.id}`).expect(404);
    await other.api.post(`/api/v1/event-pass-programs/${created.body.id}/passes`, { count: 1 }).expect(404);
    await api.get('/api/v1/event-pass-programs/not-an-id').expect(404);
  });

  it('refuses a bad program with 422 and stores nothing', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const now = Date.now();
    const backwards = await api.post('/api/v1/event-pass-programs', programBody(venue, { valid_from: new Date(now).toISOString(), valid_until: new Date(now - 1000).toISOString() })).expect(422);
    expect(backwards.body.details).toEqual([{ path: 'valid_until', message: 'must be after valid_from' }]);
    await api.post('/api/v1/event-pass-programs', programBody(venue, { tiers: ['helicopter'] })).expect(422);
    await api.post('/api/v1/event-pass-programs', programBody(venue, { tiers: [] })).expect(422);
    await api.post('/api/v1/event-pass-programs', programBody(venue, { budget: 0 })).expect(422);
    await api.post('/api/v1/event-pass-programs', programBody(venue, { max_fare_per_ride: 1.5 })).expect(422);
    await api.post('/api/v1/event-pass-programs', programBody(venue, { applies_to: 'near_venue' })).expect(422);
    expect((await api.get('/api/v1/event-pass-programs').expect(200)).body.data).toEqual([]);
  });
});

describe('event passes', () => {
  it('issues passes with typeable codes, lists them again with their use, up to 1,000 at once', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const program = (await api.post('/api/v1/event-pass-programs', programBody(venue)).expect(201)).body;
    const issued = await api
      .post(`/api/v1/event-pass-programs/${program.id}/passes`, { attendees: [{ reference: 'T-1', name: 'Ada Obi' }, { reference: 'T-2' }] })
      .expect(201);
    expect(issued.body.data).toHaveLength(2);
    expect(issued.body.data[0]).toMatchObject({ program_id: program.id, status: 'active', attendee: { reference: 'T-1', name: 'Ada Obi' }, rides_allowed: 2, rides_used: 0, rides_left: 2 });
    expect(issued.body.data[1].attendee).toEqual({ reference: 'T-2', name: null });
    for (const pass of issued.body.data) expect(pass.code).toMatch(CODE);

    const bulk = await api.post(`/api/v1/event-pass-programs/${program.id}/passes`, { count: 1000 }).expect(201);
    expect(new Set(bulk.body.data.map((p: { code: string }) => p.code)).size).toBe(1000);
    await api.post(`/api/v1/event-pass-programs/${program.id}/passes`, { count: 1001 }).expect(422);
    await api.post(`/api/v1/event-pass-programs/${program.id}/passes`, { count: 1, attendees: [{ name: 'X' }] }).expect(422);
    await api.post(`/api/v1/event-pass-programs/${program.id}/passes`, {}).expect(422);

    const first = await api.get(`/api/v1/event-pass-programs/${program.id}/passes?limit=2`).expect(200);
    expect(first.body).toMatchObject({ has_more: true });
    expect(first.body.data).toHaveLength(2);
    const rest = await api.get(`/api/v1/event-pass-programs/${program.id}/passes?limit=1000&cursor=${first.body.next_cursor}`).expect(200);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.body.data).toHaveLength(1000);
    const all = [...first.body.data, ...rest.body.data].map((p: { code: string }) => p.code).sort();
    expect(all).toEqual([...issued.body.data, ...bulk.body.data].map((p: { code: string }) => p.code).sort());
    expect((await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body.usage.passes_issued).toBe(1002);

    // The code is stored as its SHA-256 for lookup, and as issued for the organizer.
    const row = await ctx.db('event_passes').where({ id: issued.body.data[0].id }).first();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('covers a matching ride up to the cap and shows what the rider pays; the code may be typed loosely', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 2, { max_fare_per_ride: 500 });
    const loose = passes[0]!.code.toLowerCase().replace(/-/g, ' ').replace('evt ', '');
    const ride = await api.post('/api/v1/rides', rideToVenue(venue, loose)).expect(201);
    expect(ride.body.fare.amount).toBeGreaterThan(500);
    expect(ride.body.fare).toEqual({ amount: ride.body.fare.amount, currency: 'NGN', covered_by_pass: 500, rider_pays: ride.body.fare.amount - 500 });
    expect((await api.get(`/api/v1/rides/${ride.body.id}`).expect(200)).body.fare.covered_by_pass).toBe(500);

    const usage = (await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body.usage;
    expect(usage).toEqual({ passes_issued: 2, rides_redeemed: 1, amount_spent: 0, amount_reserved: 500, budget_left: 1_000_000 - 500 });
    const listed = (await api.get(`/api/v1/event-pass-programs/${program.id}/passes`).expect(200)).body.data;
    expect(listed.find((p: { id: string }) => p.id === passes[0]!.id)).toMatchObject({ rides_used: 1, rides_left: 1 });

    // A fare under the cap is covered whole.
    const generous = await programWithPasses(api, venue, 1, { max_fare_per_ride: 10_000_000, budget: 20_000_000 });
    const free = await api.post('/api/v1/rides', rideFromVenue(venue, generous.passes[0]!.code)).expect(201);
    expect(free.body.fare).toMatchObject({ covered_by_pass: free.body.fare.amount, rider_pays: 0 });

    // Without a pass a ride shows the fare only.
    const plain = await api.post('/api/v1/rides', rideBody(venue)).expect(201);
    expect(plain.body.fare).toEqual({ amount: plain.body.fare.amount, currency: 'NGN' });

    const events = await ctx.db('outbox_events').where({ object_id: program.id }).orderBy('sequence');
    expect(events.map((e) => [e.type, e.sequence])).toEqual([['event_pass.redeemed', 1]]);
    expect(events[0].body.data).toMatchObject({ ride_id: ride.body.id, program_id: program.id, covered: { amount: 500, currency: 'NGN' }, status: 'reserved', pass: { id: passes[0]!.id } });
  });

  describe('refuses a ride whose pass does not match, with 422 naming the rule, and creates nothing', () => {
    /** The ride is refused with `code`, and the organizer has no more rides than before. */
    async function refused(body: object, org: Organizer, code: string) {
      const ridesOf = async () => Number((await ctx.db('rides').where({ partner_id: org.owner.org }).count({ n: '*' }).first())!.n);
      const before = await ridesOf();
      const res = await org.api.post('/api/v1/rides', body).expect(422);
      expect(res.body.code).toBe(code);
      expect(res.body.details[0].path).toBe('event_pass');
      expect(await ridesOf()).toBe(before);
      return res;
    }

    it('an unknown code, or another organizer’s', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const other = await organizer(ctx);
      const { passes } = await programWithPasses(other.api, venue, 1);
      await refused(rideToVenue(venue, 'EVT-0000-0000-00000'), org, 'event_pass_not_found');
      await refused(rideToVenue(venue, 'not a code'), org, 'event_pass_not_found');
      await refused(rideToVenue(venue, passes[0]!.code), org, 'event_pass_not_found');
    });

    it('a revoked pass; revoking is the organizer’s and answers the pass', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const { passes } = await programWithPasses(api, venue, 1);
      const other = await organizer(ctx);
      await other.api.post(`/api/v1/event-passes/${passes[0]!.code}/revoke`).expect(404);
      const revoked = await api.post(`/api/v1/event-passes/${passes[0]!.code}/revoke`).expect(200);
      expect(revoked.body).toMatchObject({ id: passes[0]!.id, status: 'revoked', rides_left: 0 });
      expect(revoked.body.revoked_at).toEqual(expect.any(String));
      expect((await api.post(`/api/v1/event-passes/${passes[0]!.code}/revoke`).expect(200)).body.revoked_at).toBe(revoked.body.revoked_at);
      await refused(rideToVenue(venue, passes[0]!.code), org, 'event_pass_revoked');
    });

    it('a pass with no rides left', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const { passes } = await programWithPasses(api, venue, 1, { rides_per_pass: 1 });
      await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);
      await refused(rideFromVenue(venue, passes[0]!.code), org, 'event_pass_used_up');
    });

    it('a closed program; closing keeps the rides under way', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const { program, passes } = await programWithPasses(api, venue, 1);
      await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);
      const closed = await api.post(`/api/v1/event-pass-programs/${program.id}/close`).expect(200);
      expect(closed.body).toMatchObject({ status: 'closed', usage: { rides_redeemed: 1 } });
      expect(closed.body.closed_at).toEqual(expect.any(String));
      await refused(rideFromVenue(venue, passes[0]!.code), org, 'event_pass_program_closed');
      expect((await api.post(`/api/v1/event-pass-programs/${program.id}/passes`, { count: 1 }).expect(409)).body.code).toBe('event_pass_program_closed');
    });

    it('a ride outside the time window', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const later = await programWithPasses(api, venue, 1, { valid_from: new Date(Date.now() + 3_600_000).toISOString(), valid_until: new Date(Date.now() + 7_200_000).toISOString() });
      await refused(rideToVenue(venue, later.passes[0]!.code), org, 'event_pass_outside_window');
      const over = await programWithPasses(api, venue, 1, { valid_from: new Date(Date.now() - 7_200_000).toISOString(), valid_until: new Date(Date.now() - 3_600_000).toISOString() });
      await refused(rideToVenue(venue, over.passes[0]!.code), org, 'event_pass_outside_window');
    });

    it('a ride that does not touch the venue the way applies_to says', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const toVenue = await programWithPasses(api, venue, 1, { applies_to: 'to_venue' });
      await refused(rideFromVenue(venue, toVenue.passes[0]!.code), org, 'event_pass_venue_mismatch');
      await api.post('/api/v1/rides', rideToVenue(venue, toVenue.passes[0]!.code)).expect(201);

      const fromVenue = await programWithPasses(api, venue, 1, { applies_to: 'from_venue' });
      await refused(rideToVenue(venue, fromVenue.passes[0]!.code), org, 'event_pass_venue_mismatch');
      await api.post('/api/v1/rides', rideFromVenue(venue, fromVenue.passes[0]!.code)).expect(201);

      const both = await programWithPasses(api, venue, 1, { applies_to: 'both' });
      await refused(rideBody(offset(venue, 2000, 0), { event_pass: both.passes[0]!.code }), org, 'event_pass_venue_mismatch');
      // Just inside the radius counts.
      await api.post('/api/v1/rides', rideToVenue(venue, both.passes[0]!.code, { dropoff: { ...offset(venue, 450, 0), address: null } })).expect(201);
    });

    it('a tier the program does not allow', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const { passes } = await programWithPasses(api, venue, 1, { tiers: ['economy'] });
      await refused(rideToVenue(venue, passes[0]!.code, { tier: 'xl' }), org, 'event_pass_tier_not_allowed');
    });

    it('a program with no budget left; the last ride is covered with what was left, and budget_exhausted is written once', async () => {
      const venue = randomCentre();
      const org = await organizer(ctx);
      const { api } = org;
      const { program, passes } = await programWithPasses(api, venue, 3, { max_fare_per_ride: 600, budget: 1000, rides_per_pass: 1 });
      await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);
      const last = await api.post('/api/v1/rides', rideToVenue(venue, passes[1]!.code)).expect(201);
      expect(last.body.fare).toMatchObject({ covered_by_pass: 400, rider_pays: last.body.fare.amount - 400 });
      await refused(rideToVenue(venue, passes[2]!.code), org, 'event_pass_budget_exhausted');
      const shown = (await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body;
      expect(shown.usage).toMatchObject({ rides_redeemed: 2, amount_reserved: 1000, budget_left: 0 });
      expect(shown.budget_exhausted_at).toEqual(expect.any(String));
      // The refused pass kept its ride.
      expect((await ctx.db('event_passes').where({ id: passes[2]!.id }).first()).rides_used).toBe(0);

      // Budget freed by a cancellation is usable again, but the event is not written a second time.
      await api.post(`/api/v1/rides/${last.body.id}/cancel`).expect(200);
      await api.post('/api/v1/rides', rideToVenue(venue, passes[2]!.code)).expect(201);
      const events = await ctx.db('outbox_events').where({ object_id: program.id }).orderBy('sequence');
      expect(events.map((e) => e.type)).toEqual([
        'event_pass.redeemed',
        'event_pass.redeemed',
        'event_pass_program.budget_exhausted',
        'event_pass.released',
        'event_pass.redeemed',
      ]);
      expect(events[2].body.data).toMatchObject({ id: program.id, usage: { budget_left: 0 } });
    });
  });

  it('a cancelled ride releases its reservation and gives the pass its ride back', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 1, { max_fare_per_ride: 500, rides_per_pass: 1 });
    const ride = await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);
    const cancelled = await api.post(`/api/v1/rides/${ride.body.id}/cancel`).expect(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body.usage).toEqual({
      passes_issued: 1,
      rides_redeemed: 0,
      amount_spent: 0,
      amount_reserved: 0,
      budget_left: 1_000_000,
    });
    const released = await ctx.db('outbox_events').where({ object_id: program.id, type: 'event_pass.released' }).first();
    expect(released.body.data).toMatchObject({ ride_id: ride.body.id, ride_status: 'cancelled', status: 'released', covered: { amount: 500 }, pass: { rides_used: 0, rides_left: 1 } });
    // The pass can be used again.
    await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);
  });

  it('a completed ride turns its reservation into spend', async () => {
    const venue = randomCentre();
    const pickup = offset(venue, -3000, -2000);
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 1, { max_fare_per_ride: 500 });
    const driver = await onlineDriver(ctx, offset(pickup, 200, 0));
    const ride = await api.post('/api/v1/rides', rideToVenue(venue, passes[0]!.code)).expect(201);
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    await driver.app.post(`/rides/${ride.body.id}/arrived`).expect(200);
    await driver.app.post(`/rides/${ride.body.id}/start`).expect(200);
    const completed = await driver.app.post(`/rides/${ride.body.id}/complete`).expect(200);
    expect(completed.body.fare).toMatchObject({ covered_by_pass: 500 });
    expect((await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body.usage).toEqual({
      passes_issued: 1,
      rides_redeemed: 1,
      amount_spent: 500,
      amount_reserved: 0,
      budget_left: 1_000_000 - 500,
    });
    // Cancelling a completed ride is refused and changes nothing.
    await api.post(`/api/v1/rides/${ride.body.id}/cancel`).expect(409);
    expect((await ctx.db('event_pass_redemptions').where({ ride_id: ride.body.id }).first()).status).toBe('spent');
  });

  it('a ride replayed with its Idempotency-Key reserves once', async () => {
    const venue = randomCentre();
    const { api } = await organizer(ctx);
    const { program, passes } = await programWithPasses(api, venue, 1, { max_fare_per_ride: 500 });
    const body = rideToVenue(venue, passes[0]!.code);
    const first = await api.post('/api/v1/rides').set('Idempotency-Key', 'attendee-1').send(body).expect(201);
    const again = await api.post('/api/v1/rides').set('Idempotency-Key', 'attendee-1').send(body).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await api.get(`/api/v1/event-pass-programs/${program.id}`).expect(200)).body.usage).toMatchObject({ rides_redeemed: 1, amount_reserved: 500 });
    expect((await ctx.db('event_passes').where({ id: passes[0]!.id }).first()).rides_used).toBe(1);
  });

  it('answers 401 without a key', async () => {
    await request(ctx.app).get('/api/v1/event-pass-programs').expect(401);
    await request(ctx.app).post('/api/v1/event-passes/EVT-0000-0000-00000/revoke').expect(401);
  });
});
