import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { rideBody } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

describe('dispatch under races', () => {
  it('gives one free driver to one of two rides created at the same moment; the other gets the next driver', async () => {
    const centre = randomCentre();
    const near = await onlineDriver(ctx, offset(centre, 100, 0));
    const [a, b] = await Promise.all([partner.post('/api/v1/rides', rideBody(centre)), partner.post('/api/v1/rides', rideBody(centre))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const offers = await near.app.offers();
    expect(offers).toHaveLength(1);
    const winner = offers[0]!.ride_id;
    const loser = winner === a.body.id ? b.body.id : a.body.id;
    expect([a.body.id, b.body.id]).toContain(winner);
    expect(await ctx.db('dispatch_offers').where({ job_id: loser })).toHaveLength(0); // still searching

    // A second driver comes online; the loser's next search (the retry timer, run here directly) finds them.
    const second = await onlineDriver(ctx, offset(centre, 900, 0));
    await ctx.services.dispatcher.offerNext('ride', loser);
    expect((await second.app.offers()).map((o) => o.ride_id)).toEqual([loser]);
    expect((await near.app.offers()).map((o) => o.ride_id)).toEqual([winner]);
  });

  it('never offers one driver two jobs, however many rides race for few drivers', async () => {
    const centre = randomCentre();
    const drivers = await Promise.all([0, 1, 2].map((i) => onlineDriver(ctx, offset(centre, 100 + i * 200, 0))));
    const rides = await Promise.all(Array.from({ length: 8 }, () => partner.post('/api/v1/rides', rideBody(centre))));
    expect(rides.every((r) => r.status === 201)).toBe(true);
    const offered = await Promise.all(drivers.map((d) => d.app.offers()));
    expect(offered.map((o) => o.length)).toEqual([1, 1, 1]);
    const rideIds = offered.map((o) => o[0]!.ride_id);
    expect(new Set(rideIds).size).toBe(3);

    // All three accept at the same moment: each holds exactly its own ride.
    const accepted = await Promise.all(drivers.map((d, i) => d.app.post(`/offers/${offered[i]![0]!.id}/accept`)));
    expect(accepted.map((r) => r.status)).toEqual([200, 200, 200]);
    const held = await ctx.db('drivers').whereIn('id', drivers.map((d) => d.id)).select('id', 'current_job_id');
    expect(new Set(held.map((h) => h.current_job_id)).size).toBe(3);
    const assigned = await ctx.db('rides').whereIn('driver_id', drivers.map((d) => d.id));
    expect(assigned).toHaveLength(3);
  });

  it('does not offer rides to drivers who went offline, of another tier, or out of range', async () => {
    const centre = randomCentre();
    const offline = await onlineDriver(ctx, offset(centre, 50, 0));
    await offline.app.post('/availability', { available: false }).expect(200);
    const comfort = await onlineDriver(ctx, offset(centre, 60, 0), { tier: 'comfort' });
    const distant = await onlineDriver(ctx, offset(centre, 8000, 0));
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    for (const d of [offline, comfort, distant]) expect(await d.app.offers()).toEqual([]);
    const estimate = await partner.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 1000, 0) }).expect(200);
    const byTier = Object.fromEntries(estimate.body.estimates.map((e: { tier: string; available: boolean }) => [e.tier, e.available]));
    expect(byTier).toEqual({ moto: false, economy: false, comfort: true, xl: false });
    expect((await partner.get(`/api/v1/rides/${ride.body.id}`).expect(200)).body.status).toBe('pending');
  });

  it('moves to the next nearest driver when one declines, never asking the same driver twice', async () => {
    const centre = randomCentre();
    const first = await onlineDriver(ctx, offset(centre, 100, 0));
    const second = await onlineDriver(ctx, offset(centre, 600, 0));
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    const [offer] = await first.app.offers();
    expect(offer!.ride_id).toBe(ride.body.id);
    expect((await first.app.post(`/offers/${offer!.id}/decline`).expect(200)).body).toEqual({ id: offer!.id, status: 'declined' });
    expect((await second.app.offers()).map((o) => o.ride_id)).toEqual([ride.body.id]);
    expect(await first.app.offers()).toEqual([]);
    await first.app.post(`/offers/${offer!.id}/accept`).expect(409);
  });

  it('passes an open offer to the next driver when its driver goes offline', async () => {
    const centre = randomCentre();
    const leaving = await onlineDriver(ctx, offset(centre, 100, 0));
    const staying = await onlineDriver(ctx, offset(centre, 800, 0));
    const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    expect((await leaving.app.offers()).map((o) => o.ride_id)).toEqual([ride.body.id]);
    await leaving.app.post('/availability', { available: false }).expect(200);
    expect(await leaving.app.offers()).toEqual([]);
    expect((await staying.app.offers()).map((o) => o.ride_id)).toEqual([ride.body.id]);
    expect((await ctx.db('drivers').where({ id: leaving.id }).first()).current_job_id).toBeNull();
  });

  it('settles a cancel racing an accept cleanly: never a 500, and the ride ends consistent', async () => {
    for (let i = 0; i < 5; i++) {
      const centre = randomCentre();
      const driver = await onlineDriver(ctx, offset(centre, 100, 0));
      const ride = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
      const [offer] = await driver.app.offers();
      const [cancel, accept] = await Promise.all([partner.post(`/api/v1/rides/${ride.body.id}/cancel`), driver.app.post(`/offers/${offer!.id}/accept`)]);
      expect(cancel.status).toBe(200); // an accepted ride can still be cancelled
      expect([200, 409]).toContain(accept.status);
      const final = await partner.get(`/api/v1/rides/${ride.body.id}`).expect(200);
      expect(final.body.status).toBe('cancelled');
      const row = await ctx.db('drivers').where({ id: driver.id }).first();
      expect(row.current_job_id).toBeNull();
      const events = await ctx.db('outbox_events').where({ object_id: ride.body.id }).orderBy('sequence');
      expect(events.map((e) => e.sequence)).toEqual(events.map((_e, n) => n + 1));
    }
  });
});
