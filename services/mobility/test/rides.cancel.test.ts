import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { offset, onlineDriver, randomCentre, type Point } from './factories/fleet';
import { rideBody } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

/** A ride driven by a fresh driver to `status` (pending rides get an offer but no acceptance). */
async function rideIn(status: 'pending' | 'accepted' | 'arrived' | 'in_progress' | 'completed', centre: Point = randomCentre()) {
  const driver = await onlineDriver(ctx, offset(centre, 200, 0));
  const ride = (await partner.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
  const [offer] = await driver.app.offers();
  if (status !== 'pending') await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
  const moves = { pending: [], accepted: [], arrived: ['arrived'], in_progress: ['arrived', 'start'], completed: ['arrived', 'start', 'complete'] }[status];
  for (const move of moves) await driver.app.post(`/rides/${ride.id}/${move}`).expect(200);
  return { ride, driver, offer: offer! };
}

describe('cancelling a ride', () => {
  it('cancels a pending ride, withdraws its offer and frees the driver', async () => {
    const centre = randomCentre();
    const { ride, driver, offer } = await rideIn('pending', centre);
    const res = await partner.post(`/api/v1/rides/${ride.id}/cancel`).expect(200);
    expect(res.body).toMatchObject({ id: ride.id, status: 'cancelled', cancelled_by: 'partner', driver: null, sequence: 1 });
    expect(await driver.app.offers()).toEqual([]);
    const accept = await driver.app.post(`/offers/${offer.id}/accept`).expect(409);
    expect(accept.body.code).toBe('offer_closed');
    const next = await partner.post('/api/v1/rides', rideBody(centre)).expect(201);
    expect((await driver.app.offers())[0]!.ride_id).toBe(next.body.id);
  });

  it.each(['accepted', 'arrived', 'in_progress'] as const)('cancels an %s ride and writes ride.cancelled to the outbox', async (status) => {
    const { ride } = await rideIn(status);
    const res = await partner.post(`/api/v1/rides/${ride.id}/cancel`).expect(200);
    expect(res.body).toMatchObject({ status: 'cancelled', cancelled_by: 'partner', vehicle_location: null });
    const event = await ctx.db('outbox_events').where({ object_id: ride.id, type: 'ride.cancelled' }).first();
    expect(event.sequence).toBe(res.body.sequence);
    expect(event.body).toMatchObject({ type: 'ride.cancelled', data: res.body });
    expect(event.body.id).toMatch(/^evt_/);
  });

  it('refuses to cancel a completed or cancelled ride with 409 naming its status', async () => {
    const { ride } = await rideIn('completed');
    const done = await partner.post(`/api/v1/rides/${ride.id}/cancel`).expect(409);
    expect(done.body).toMatchObject({ error: 'Cannot cancel a ride that is completed', code: 'invalid_ride_status' });

    const pending = (await rideIn('pending')).ride;
    await partner.post(`/api/v1/rides/${pending.id}/cancel`).expect(200);
    const again = await partner.post(`/api/v1/rides/${pending.id}/cancel`).expect(409);
    expect(again.body.error).toContain('cancelled');
    expect(await ctx.db('outbox_events').where({ object_id: pending.id })).toHaveLength(1);
  });

  it('lets the assigned driver cancel, and refuses moves the state machine does not allow', async () => {
    const { ride, driver } = await rideIn('accepted');
    const early = await driver.app.post(`/rides/${ride.id}/complete`).expect(409);
    expect(early.body.error).toBe('Cannot complete a ride that is accepted');
    await driver.app.post(`/rides/${ride.id}/start`).expect(409);
    const cancelled = await driver.app.post(`/rides/${ride.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_by: 'driver' });
    await driver.app.post(`/rides/${ride.id}/arrived`).expect(409);
  });

  it("answers 404 to a driver acting on another driver's ride or offer", async () => {
    const centre = randomCentre();
    const { ride, offer } = await rideIn('accepted', centre);
    const pendingOne = await rideIn('pending', offset(centre, 50_000, 0));
    const intruder = await onlineDriver(ctx, offset(centre, 90_000, 0));
    for (const move of ['arrived', 'start', 'complete', 'cancel']) {
      expect((await intruder.app.post(`/rides/${ride.id}/${move}`).expect(404)).body.code).toBe('not_found');
    }
    await intruder.app.post(`/offers/${offer.id}/accept`).expect(404);
    await intruder.app.post(`/offers/${pendingOne.offer.id}/accept`).expect(404);
    await intruder.app.post(`/offers/${pendingOne.offer.id}/decline`).expect(404);
    await intruder.app.post('/offers/ofr_bad/accept').expect(404);
    await intruder.app.post('/rides/bad/start').expect(404);
  });
});

describe("a ride's receipt", () => {
  it('answers a completed ride: its fare, route, tier, names and when it completed', async () => {
    const { ride, driver } = await rideIn('completed');
    const completed = (await partner.get(`/api/v1/rides/${ride.id}`).expect(200)).body;
    const receipt = await partner.get(`/api/v1/rides/${ride.id}/receipt`).expect(200);
    expect(receipt.body).toEqual({
      ride_id: ride.id,
      tier: ride.tier,
      pickup: ride.pickup,
      dropoff: ride.dropoff,
      fare: completed.fare,
      passenger_name: ride.passenger.name,
      driver_name: completed.driver.name,
      completed_at: completed.updated_at,
      livemode: true,
    });
    expect(driver.id).toBe(completed.driver.id);
  });

  it('has none before the ride completes (409 naming its status) and none for a ride the key cannot see (404)', async () => {
    const { ride } = await rideIn('in_progress');
    const early = await partner.get(`/api/v1/rides/${ride.id}/receipt`).expect(409);
    expect(early.body).toMatchObject({ code: 'invalid_ride_status', error: expect.stringContaining('in_progress') });
    expect((await partner.get('/api/v1/rides/ride_doesnotexist0000/receipt').expect(404)).body.code).toBe('not_found');
  });
});
