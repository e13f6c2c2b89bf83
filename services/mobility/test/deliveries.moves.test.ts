import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { assignedDelivery, deliveryBody, onlineCourier, pickedUpDelivery } from './factories/deliveries';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { rideBody } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

async function eventTypes(id: string) {
  return (await ctx.db('outbox_events').where({ object_id: id }).orderBy('sequence')).map((e) => `${e.sequence} ${e.type}`);
}

async function heldJob(driverId: string) {
  return (await ctx.db('drivers').where({ id: driverId }).first()).current_job_id as string | null;
}

describe('partner cancellation', () => {
  it('cancels a pending delivery, withdrawing its open offer', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const created = await partner.post('/api/v1/deliveries', deliveryBody(spot)).expect(201);
    expect(await courier.app.offers()).toHaveLength(1);
    const cancelled = await partner.post(`/api/v1/deliveries/${created.body.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_by: 'partner', sequence: 1, courier: null });
    expect(await courier.app.offers()).toEqual([]);
    expect(await heldJob(courier.id)).toBeNull();
    expect(await eventTypes(created.body.id)).toEqual(['1 delivery.cancelled']);
    const [event] = await ctx.db('outbox_events').where({ object_id: created.body.id });
    expect(event.body.data).toEqual(cancelled.body);
  });

  it('cancels after a courier is assigned and frees the courier', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id } = await assignedDelivery(partner, courier, spot);
    expect(await heldJob(courier.id)).toBe(id);
    const cancelled = await partner.post(`/api/v1/deliveries/${id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_by: 'partner', courier: { id: courier.id }, courier_location: null });
    expect(await heldJob(courier.id)).toBeNull();
    expect(await eventTypes(id)).toEqual(['1 delivery.courier_assigned', '2 delivery.cancelled']);
    await courier.app.post(`/deliveries/${id}/pickup`).expect(409);
  });

  it('refuses to cancel once picked up or finished: 409 naming the status', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id, pin } = await pickedUpDelivery(partner, courier, spot);
    const late = await partner.post(`/api/v1/deliveries/${id}/cancel`).expect(409);
    expect(late.body).toMatchObject({ error: 'Cannot cancel a delivery that is picked_up', code: 'invalid_delivery_status' });
    await courier.app.post(`/deliveries/${id}/deliver`, { pin }).expect(200);
    const done = await partner.post(`/api/v1/deliveries/${id}/cancel`).expect(409);
    expect(done.body.error).toBe('Cannot cancel a delivery that is delivered');
    const again = await partner.post(`/api/v1/deliveries/${(await partner.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body.id}/cancel`).expect(200);
    expect((await partner.post(`/api/v1/deliveries/${again.body.id}/cancel`).expect(409)).body.error).toBe('Cannot cancel a delivery that is cancelled');
  });
});

describe('courier moves', () => {
  it('reports a failure before pick-up, frees the courier, and refuses any later move', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id, pin } = await assignedDelivery(partner, courier, spot);
    const failed = await courier.app.post(`/deliveries/${id}/fail`, { reason: 'Sender closed' }).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'Sender closed', cancelled_by: null, sequence: 2 });
    expect(await heldJob(courier.id)).toBeNull();
    await courier.app.post(`/deliveries/${id}/pickup`).expect(409);
    await courier.app.post(`/deliveries/${id}/deliver`, { pin }).expect(409);
    await courier.app.post(`/deliveries/${id}/fail`, { reason: 'again' }).expect(409);
    await partner.post(`/api/v1/deliveries/${id}/cancel`).expect(409);
    expect(await eventTypes(id)).toEqual(['1 delivery.courier_assigned', '2 delivery.failed']);
  });

  it('reports a failure after pick-up', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id } = await pickedUpDelivery(partner, courier, spot);
    await courier.app.post(`/deliveries/${id}/pickup`).expect(409);
    const failed = await courier.app.post(`/deliveries/${id}/fail`, { reason: 'Recipient not at home' }).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'Recipient not at home' });
    expect(await eventTypes(id)).toEqual(['1 delivery.courier_assigned', '2 delivery.picked_up', '3 delivery.failed']);
  });

  it('does not answer ride moves on a delivery or delivery moves on a ride', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id } = await assignedDelivery(partner, courier, spot);
    await courier.app.post(`/rides/${id}/arrived`).expect(404);
    const driver = await onlineDriver(ctx, offset(spot, 100, 0));
    const ride = await partner.post('/api/v1/rides', rideBody(spot)).expect(201);
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    await driver.app.post(`/deliveries/${ride.body.id}/pickup`).expect(404);
  });
});

describe('couriers and drivers under races', () => {
  it('never lets a courier hold a ride and a delivery, or two deliveries, at once', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 50, 0), { tier: 'economy' }); // same vehicle tier as the rides
    const driver = await onlineDriver(ctx, offset(spot, 80, 0));
    const created = await Promise.all([
      ...Array.from({ length: 4 }, () => partner.post('/api/v1/rides', rideBody(spot))),
      ...Array.from({ length: 4 }, () => partner.post('/api/v1/deliveries', deliveryBody(spot, { weight_tier: 'large' }))),
    ]);
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(201));
    const rideIds = created.slice(0, 4).map((r) => r.body.id as string);
    const deliveryIds = created.slice(4).map((r) => r.body.id as string);

    const courierOffers = await courier.app.offers();
    const driverOffers = await driver.app.offers();
    expect(courierOffers).toHaveLength(1);
    expect(courierOffers[0]).toMatchObject({ kind: 'delivery' });
    expect(deliveryIds).toContain(courierOffers[0]!.delivery_id);
    expect(driverOffers).toHaveLength(1);
    expect(rideIds).toContain(driverOffers[0]!.ride_id);

    await courier.app.post(`/offers/${courierOffers[0]!.id}/accept`).expect(200);
    // Other searches run again (as the retry timer would) while the courier holds the delivery: nothing more for them.
    await Promise.all([...rideIds, ...deliveryIds].map((id) => ctx.services.dispatcher.offerNext(id.startsWith('ride_') ? 'ride' : 'delivery', id)));
    expect(await courier.app.offers()).toEqual([]);
    const held = await ctx.db('rides').where({ driver_id: courier.id });
    expect(held).toHaveLength(0);
    expect(await ctx.db('deliveries').where({ courier_id: courier.id })).toHaveLength(1);
    expect(await ctx.db('dispatch_offers').where({ driver_id: courier.id })).toHaveLength(1);
  });

  it('settles a partner cancel racing a courier accept cleanly', async () => {
    for (let i = 0; i < 4; i++) {
      const spot = randomCentre();
      const courier = await onlineCourier(ctx, offset(spot, 100, 0));
      const created = await partner.post('/api/v1/deliveries', deliveryBody(spot)).expect(201);
      const [offer] = await courier.app.offers();
      const [cancel, accept] = await Promise.all([partner.post(`/api/v1/deliveries/${created.body.id}/cancel`), courier.app.post(`/offers/${offer!.id}/accept`)]);
      expect(cancel.status).toBe(200);
      expect([200, 409]).toContain(accept.status);
      expect((await partner.get(`/api/v1/deliveries/${created.body.id}`).expect(200)).body.status).toBe('cancelled');
      expect(await heldJob(courier.id)).toBeNull();
      const events = await ctx.db('outbox_events').where({ object_id: created.body.id }).orderBy('sequence');
      expect(events.map((e) => e.sequence)).toEqual(events.map((_e, n) => n + 1));
    }
  });
});
