/** The ride's life cycle over the in-memory rides table: the state machine as partners and drivers meet it, no Postgres. */
import type { Logger } from '@platform/service-kit/logger';
import { createInMemoryDatabase } from '../src/features/jobs/in-memory-jobs';
import { createInMemoryRidesRepository } from '../src/features/rides/in-memory-rides';
import { createRideLifecycle, rideDispatchHandler } from '../src/features/rides/ride-lifecycle';
import { createRideService, type RideServiceDeps } from '../src/features/rides/rides.service';
import { fakeDriver, fakeJobPorts, fakePosition, settled } from './helpers/fake-job-ports';

const PARTNER = { partnerId: 'org_unit', livemode: true };
const unused = () => {
  throw new Error('not used by these moves');
};

function setup() {
  const memory = createInMemoryDatabase();
  const rides = createInMemoryRidesRepository(memory);
  const driver = fakeDriver('drv_unit_1');
  const fake = fakeJobPorts(memory, [driver]);
  const lifecycle = createRideLifecycle(memory.db, rides, fake.ports);
  const service = createRideService({
    db: memory.db,
    repository: rides,
    lifecycle,
    dispatcher: { scheduleSearch: unused, offerNext: unused } as unknown as RideServiceDeps['dispatcher'],
    estimates: { findEstimate: unused },
    logger: {} as Logger,
  });
  const dispatch = rideDispatchHandler(lifecycle);
  let n = 0;
  const newRide = async (partnerId = PARTNER.partnerId) =>
    rides.insert(memory.db, {
      id: `ride_unit_${++n}`,
      partner_id: partnerId,
      livemode: true,
      tier: 'economy',
      pickup_lat: 6.45,
      pickup_lng: 3.39,
      pickup_address: null,
      dropoff_lat: 6.43,
      dropoff_lng: 3.42,
      dropoff_address: null,
      fare_amount: 150_000,
      fare_currency: 'NGN',
      estimate_id: null,
      passenger_name: 'Ada Obi',
      passenger_phone: '+2348012345678',
    });
  /** The dispatcher's accept: the driver takes the pending ride, with the position read before the transaction. */
  const accept = (id: string) => {
    const position = fake.positions.get(driver.id) ?? null;
    return memory.db.transaction((trx) => dispatch.assign(trx, id, driver.id, position));
  };
  return { memory, rides, driver, lifecycle, service, accept, newRide, ...fake };
}

describe('a ride through its life cycle (in-memory rides table)', () => {
  it('moves pending → accepted → arrived → in_progress → completed, one event per change carrying the ride as GET shows it', async () => {
    const t = setup();
    const ride = await t.newRide();
    t.positions.set(t.driver.id, fakePosition(6.451, 3.391));

    const accepted = await t.accept(ride.id);
    expect(accepted).toMatchObject({ status: 'accepted', sequence: 1, driver: { id: t.driver.id }, vehicle_location: { lat: 6.451, lng: 3.391 } });
    await t.service.driverMove(t.driver, ride.id, 'arrive');
    await t.service.driverMove(t.driver, ride.id, 'start');
    const completed = await t.service.driverMove(t.driver, ride.id, 'complete');
    expect(completed).toMatchObject({ status: 'completed', sequence: 4, vehicle_location: null });

    expect(t.outbox.map((e) => [e.type, e.sequence])).toEqual([
      ['ride.accepted', 1],
      ['ride.arrived', 2],
      ['ride.in_progress', 3],
      ['ride.completed', 4],
    ]);
    expect(t.outbox[0]!.data).toEqual(accepted);
    expect(t.outbox[3]!.data).toEqual(completed);
    expect(t.outbox.every((e) => e.partnerId === PARTNER.partnerId && e.objectId === ride.id && e.livemode)).toBe(true);
    expect(t.rides.rows()[0]).toMatchObject({ status: 'completed', driver_id: t.driver.id, sequence: 4 });
  });

  it('shows the position it was given: no position is read while the row is locked', async () => {
    const t = setup();
    const ride = await t.newRide();
    t.positions.set(t.driver.id, fakePosition(6.452, 3.392));
    await t.accept(ride.id);
    t.positions.set(t.driver.id, fakePosition(6.46, 3.4));
    const arrived = await t.service.driverMove(t.driver, ride.id, 'arrive');
    await t.service.driverMove(t.driver, ride.id, 'start');
    await t.service.cancelByPartner(PARTNER, ride.id);
    expect(arrived.vehicle_location).toMatchObject({ lat: 6.46, lng: 3.4 });
    expect(t.outbox[1]!.data.vehicle_location).toMatchObject({ lat: 6.46, lng: 3.4 });
    expect(t.calls.telemetry).toBeGreaterThan(0);
    expect(t.calls.telemetryUnderLock).toBe(0);
  });

  it('refuses a move the table does not allow with 409 invalid_ride_status and changes nothing', async () => {
    const t = setup();
    const ride = await t.newRide();
    await t.accept(ride.id);
    await t.service.driverMove(t.driver, ride.id, 'arrive');
    await t.service.driverMove(t.driver, ride.id, 'start');
    await t.service.driverMove(t.driver, ride.id, 'complete');
    const before = t.rides.rows();

    await expect(t.service.cancelByPartner(PARTNER, ride.id)).rejects.toMatchObject({ status: 409, code: 'invalid_ride_status', message: 'Cannot cancel a ride that is completed' });
    await expect(t.service.driverMove(t.driver, ride.id, 'start')).rejects.toMatchObject({ status: 409, code: 'invalid_ride_status' });
    expect(t.rides.rows()).toEqual(before);
    expect(t.outbox).toHaveLength(4);
  });

  it('finds only the partner\'s own ride (another partner\'s is a 404) and only the assigned driver may move it', async () => {
    const t = setup();
    const ride = await t.newRide();
    await expect(t.service.cancelByPartner({ partnerId: 'org_other', livemode: true }, ride.id)).rejects.toMatchObject({ status: 404 });
    await expect(t.service.cancelByPartner({ ...PARTNER, livemode: false }, ride.id)).rejects.toMatchObject({ status: 404 });
    await t.accept(ride.id);
    await expect(t.service.driverMove(fakeDriver('drv_unit_other'), ride.id, 'arrive')).rejects.toMatchObject({ status: 404 });
    expect(t.outbox).toHaveLength(1);
  });

  it('a partner\'s cancel ends the ride and frees its driver, after the commit', async () => {
    const t = setup();
    const ride = await t.newRide();
    await t.accept(ride.id);
    const cancelled = await t.service.cancelByPartner(PARTNER, ride.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_by: 'partner', sequence: 2 });
    expect(t.released).toEqual([[t.driver.id, ride.id]]);
    expect(t.freedAfterCommit).toEqual([t.driver.id]);
  });

  it('the dispatcher gives up on a pending ride: no_drivers_available, no driver to free', async () => {
    const t = setup();
    const ride = await t.newRide();
    const handler = rideDispatchHandler(t.lifecycle);
    await t.memory.db.transaction((trx) => handler.giveUp(trx, ride.id));
    expect(t.rides.rows()[0]).toMatchObject({ status: 'no_drivers_available', sequence: 1 });
    expect(t.outbox.map((e) => e.type)).toEqual(['ride.no_drivers_available']);
    expect(await t.memory.db.transaction((trx) => handler.lockSearching(trx, ride.id))).toBeNull();
  });

  it('a change rolled back leaves the row and the outbox as they were, and is never announced to live streams', async () => {
    const t = setup();
    const ride = await t.newRide();
    await expect(
      t.lifecycle.commit(async (trx) => {
        await t.lifecycle.changeStatus(trx, await t.lifecycle.lock(trx, { id: ride.id }), 'cancel', { cancelled_by: 'partner' }, null);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    await settled();
    expect(t.rides.rows()[0]).toMatchObject({ status: 'pending', sequence: 0, cancelled_by: null });
    expect(t.outbox).toEqual([]);
    expect(t.committed).toEqual([]);

    await t.service.cancelByPartner(PARTNER, ride.id);
    await settled();
    expect(t.committed).toEqual([{ id: ride.id, status: 'cancelled', sequence: 1 }]);
  });

  it('lists the partner\'s rides newest first, each as GET shows it, reading drivers and positions once per page', async () => {
    const t = setup();
    const first = await t.newRide();
    const second = await t.newRide();
    await t.newRide('org_other');
    const third = await t.newRide();
    t.positions.set(t.driver.id, fakePosition(6.45, 3.39));
    await t.accept(second.id);
    const calls = { ...t.calls };

    const page = await t.service.listRides(PARTNER, { limit: 2 });
    expect(page.data.map((r) => r.id)).toEqual([third.id, second.id]);
    expect(page).toMatchObject({ has_more: true, next_cursor: second.id });
    expect(page.data[1]).toEqual(await t.service.getRide(PARTNER, second.id));
    expect(t.calls.findDrivers - calls.findDrivers).toBe(1);
    expect(t.calls.telemetries - calls.telemetries).toBe(1);
    expect(t.calls.findDriver - calls.findDriver).toBe(1); // getRide's own read only

    const next = await t.service.listRides(PARTNER, { limit: 2, cursor: page.next_cursor! });
    expect(next).toEqual({ data: [expect.objectContaining({ id: first.id })], has_more: false, next_cursor: null });
    await expect(t.service.listRides(PARTNER, { limit: 2, cursor: 'ride_unknown' })).rejects.toMatchObject({ status: 422 });
  });
});
