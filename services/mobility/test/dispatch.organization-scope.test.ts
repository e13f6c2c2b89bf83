import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey, newAdmin } from './factories/auth';
import { onlineCourier, deliveryBody } from './factories/deliveries';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/** A partner organization with its API key and an operator who registers the organization's own drivers. */
async function organization() {
  const key = await createPartnerKey(ctx);
  return { api: partnerApi(ctx, key.token), org: key.owner.org, operator: newAdmin({ org: key.owner.org, role: 'operator' }) };
}

const offeredDriverIds = async (jobId: string) => (await ctx.db('dispatch_offers').where({ job_id: jobId }).orderBy('created_at')).map((o) => o.driver_id as string);

describe("dispatch offers a partner's jobs only to its own drivers and the platform's", () => {
  it("never offers organization A's ride to organization B's driver, even when B's driver is nearest", async () => {
    const centre = randomCentre();
    const [a, b] = [await organization(), await organization()];
    const driverOfB = await onlineDriver(ctx, offset(centre, 50, 0), {}, b.operator);
    const driverOfA = await onlineDriver(ctx, offset(centre, 1500, 0), {}, a.operator);

    const ride = await a.api.post('/api/v1/rides', rideBody(centre)).expect(201);
    expect(await driverOfB.app.offers()).toEqual([]);
    const [offer] = await driverOfA.app.offers();
    expect(offer).toMatchObject({ ride_id: ride.body.id });

    // A declines; the next search still never reaches B's driver, who stays free for B's own rides.
    await driverOfA.app.post(`/offers/${offer!.id}/decline`).expect(200);
    await ctx.services.dispatcher.offerNext('ride', ride.body.id);
    expect(await offeredDriverIds(ride.body.id)).toEqual([driverOfA.id]);
    expect(await driverOfB.app.offers()).toEqual([]);
    expect((await a.api.get(`/api/v1/rides/${ride.body.id}`).expect(200)).body).toMatchObject({ status: 'pending', driver: null });

    const rideOfB = await b.api.post('/api/v1/rides', rideBody(centre)).expect(201);
    expect((await driverOfB.app.offers()).map((o) => o.ride_id)).toEqual([rideOfB.body.id]);
  });

  it('a search retry answers as the locked search would: nothing while only foreign drivers are near or an offer is open, an offer once an own driver comes near, nothing after a cancel', async () => {
    const centre = randomCentre();
    const [a, b] = [await organization(), await organization()];
    const driverOfB = await onlineDriver(ctx, offset(centre, 50, 0), {}, b.operator);
    const ride = await a.api.post('/api/v1/rides', rideBody(centre)).expect(201);

    expect(await ctx.services.dispatcher.retrySearch('ride', ride.body.id)).toBeUndefined();
    expect(await offeredDriverIds(ride.body.id)).toEqual([]);

    const driverOfA = await onlineDriver(ctx, offset(centre, 300, 0), {}, a.operator);
    expect(await ctx.services.dispatcher.retrySearch('ride', ride.body.id)).toMatchObject({ job_id: ride.body.id, driver_id: driverOfA.id, status: 'pending' });

    // The offer is open and A's only driver holds it: another retry changes nothing.
    expect(await ctx.services.dispatcher.retrySearch('ride', ride.body.id)).toBeUndefined();
    expect(await offeredDriverIds(ride.body.id)).toEqual([driverOfA.id]);
    expect((await driverOfA.app.offers()).map((o) => o.ride_id)).toEqual([ride.body.id]);

    await a.api.post(`/api/v1/rides/${ride.body.id}/cancel`).expect(200);
    await onlineDriver(ctx, offset(centre, 100, 0), {}, a.operator);
    expect(await ctx.services.dispatcher.retrySearch('ride', ride.body.id)).toBeUndefined();
    expect(await offeredDriverIds(ride.body.id)).toEqual([driverOfA.id]);
    expect(await driverOfB.app.offers()).toEqual([]);
  });

  it("never offers organization A's delivery to organization B's courier", async () => {
    const centre = randomCentre();
    const [a, b] = [await organization(), await organization()];
    const courierOfB = await onlineCourier(ctx, offset(centre, 30, 0), {}, b.operator);
    const delivery = await a.api.post('/api/v1/deliveries', deliveryBody(centre)).expect(201);
    expect(await courierOfB.app.offers()).toEqual([]);
    expect(await offeredDriverIds(delivery.body.id)).toEqual([]);
  });

  it("offers a platform operator's driver the jobs of every partner", async () => {
    const centre = randomCentre();
    const [a, b] = [await organization(), await organization()];
    const platformDriver = await onlineDriver(ctx, offset(centre, 200, 0), {}, newAdmin({ role: 'platform_operator' }));
    expect(platformDriver.serves_all_partners).toBe(true);

    const rideOfA = await a.api.post('/api/v1/rides', rideBody(centre)).expect(201);
    const [offerA] = await platformDriver.app.offers();
    expect(offerA).toMatchObject({ ride_id: rideOfA.body.id });
    await platformDriver.app.post(`/offers/${offerA!.id}/decline`).expect(200);

    const rideOfB = await b.api.post('/api/v1/rides', rideBody(centre)).expect(201);
    const [offerB] = await platformDriver.app.offers();
    expect(offerB).toMatchObject({ ride_id: rideOfB.body.id });
    const accepted = await platformDriver.app.post(`/offers/${offerB!.id}/accept`).expect(200);
    expect(accepted.body).toMatchObject({ id: rideOfB.body.id, status: 'accepted', driver: { id: platformDriver.id } });
  });

  it("counts only drivers the partner may be offered in an estimate's availability", async () => {
    const centre = randomCentre();
    const [a, b] = [await organization(), await organization()];
    await onlineDriver(ctx, offset(centre, 100, 0), { tier: 'comfort' }, b.operator);
    const quote = async () => {
      const res = await a.api.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 3000, 0) }).expect(200);
      return res.body.estimates.find((e: { tier: string }) => e.tier === 'comfort') as { available: boolean; pickup_eta_seconds: number | null };
    };
    expect(await quote()).toMatchObject({ available: false, pickup_eta_seconds: null });
    await onlineDriver(ctx, offset(centre, 400, 0), { tier: 'comfort' }, a.operator);
    expect(await quote()).toMatchObject({ available: true, pickup_eta_seconds: expect.any(Number) });
  });
});
