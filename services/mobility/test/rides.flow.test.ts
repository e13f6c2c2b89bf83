import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('a ride from estimate to completion', () => {
  it('estimates, creates, offers to the nearest driver, and follows the driver to the drop-off', async () => {
    const centre = randomCentre();
    const { token } = await createPartnerKey(ctx);
    const partner = partnerApi(ctx, token);
    const far = await onlineDriver(ctx, offset(centre, 2500, 0));
    const near = await onlineDriver(ctx, offset(centre, 400, 300));

    const estimate = await partner.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 3000, 2000) }).expect(200);
    const economy = estimate.body.estimates.find((e: { tier: string }) => e.tier === 'economy');
    expect(economy).toMatchObject({ available: true, display_name: 'Economy' });
    expect(economy.pickup_eta_seconds).toBeGreaterThan(0);

    const created = await partner.post('/api/v1/rides', rideBody(centre, { estimate_id: estimate.body.id })).expect(201);
    expect(created.body).toMatchObject({ status: 'pending', tier: 'economy', driver: null, vehicle_location: null, cancelled_by: null, sequence: 0 });
    expect(created.body.id).toMatch(/^ride_/);
    expect(created.body.fare).toEqual(economy.fare);

    expect(await far.app.offers()).toEqual([]);
    const [offer] = await near.app.offers();
    expect(offer).toMatchObject({ kind: 'ride', ride_id: created.body.id, pickup: { lat: centre.lat, lng: centre.lng } });
    expect(offer!.id).toMatch(/^ofr_/);

    const accepted = await near.app.post(`/offers/${offer!.id}/accept`).expect(200);
    expect(accepted.body).toMatchObject({ id: created.body.id, status: 'accepted', sequence: 1 });
    expect(accepted.body.driver).toMatchObject({ id: near.id, name: near.name, rating: 5, vehicle: { make: 'Toyota', model: 'Corolla' } });

    await near.app.post('/location', { ...offset(centre, 100, 100), heading: 180, speed_kph: 20 }).expect(200);
    const enRoute = await partner.get(`/api/v1/rides/${created.body.id}`).expect(200);
    expect(enRoute.body.vehicle_location).toMatchObject({ ...offset(centre, 100, 100), heading: 180 });

    await near.app.post(`/rides/${created.body.id}/arrived`).expect(200);
    const started = await near.app.post(`/rides/${created.body.id}/start`).expect(200);
    expect(started.body.status).toBe('in_progress');

    await near.app.post('/location', { ...offset(centre, 1500, 1000), heading: 45, speed_kph: 40 }).expect(200);
    const moving = await partner.get(`/api/v1/rides/${created.body.id}`).expect(200);
    expect(moving.body.vehicle_location).toMatchObject({ ...offset(centre, 1500, 1000), heading: 45 });
    expect(moving.body.vehicle_location.updated_at).toEqual(expect.any(String));

    const completed = await near.app.post(`/rides/${created.body.id}/complete`).expect(200);
    expect(completed.body).toMatchObject({ status: 'completed', sequence: 4, driver: { id: near.id } });

    const events = await ctx.db('outbox_events').where({ object_id: created.body.id }).orderBy('sequence');
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ['ride.accepted', 1],
      ['ride.arrived', 2],
      ['ride.in_progress', 3],
      ['ride.completed', 4],
    ]);
    expect(events[3].body.data).toEqual(completed.body);
    expect(events[3].partner_id).toBe((await ctx.db('rides').where({ id: created.body.id }).first()).partner_id);

    // The driver is free again and gets the next ride.
    const next = await partner.post('/api/v1/rides', rideBody(offset(centre, 1500, 1000))).expect(201);
    const [nextOffer] = await near.app.offers();
    expect(nextOffer!.ride_id).toBe(next.body.id);
  });

  it('locks the estimated fare and refuses an estimate of another partner or for another trip', async () => {
    const centre = randomCentre();
    const partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const other = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const estimate = await partner.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 3000, 2000) }).expect(200);

    const foreign = await other.post('/api/v1/rides', rideBody(centre, { estimate_id: estimate.body.id })).expect(422);
    expect(foreign.body.details).toEqual([{ path: 'estimate_id', message: 'estimate not found' }]);
    const elsewhere = await partner.post('/api/v1/rides', rideBody(offset(centre, 5000, 0), { estimate_id: estimate.body.id })).expect(422);
    expect(elsewhere.body.details[0].path).toBe('estimate_id');
  });

  it('refuses an expired estimate and prices the ride afresh without one', async () => {
    const centre = randomCentre();
    const partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const estimate = await partner.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 3000, 2000) }).expect(200);
    await ctx.db('estimates').where({ id: estimate.body.id }).update({ expires_at: ctx.db.raw(`now() - interval '1 second'`) });
    const expired = await partner.post('/api/v1/rides', rideBody(centre, { estimate_id: estimate.body.id })).expect(422);
    expect(expired.body.details).toEqual([{ path: 'estimate_id', message: 'estimate has expired; request a new one' }]);
    const fresh = await partner.post('/api/v1/rides', rideBody(centre, { tier: 'comfort' })).expect(201);
    const comfort = estimate.body.estimates.find((e: { tier: string }) => e.tier === 'comfort');
    expect(fresh.body.fare).toEqual(comfort.fare); // same trip, same table
    expect(fresh.body.estimate_id).toBeNull();
  });
});
