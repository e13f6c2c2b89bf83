/** The delivery's life cycle over the in-memory deliveries table: courier moves, the PIN counter, no Postgres. */
import type { Logger } from '@platform/service-kit/logger';
import { createInMemoryDeliveriesRepository } from '../src/features/deliveries/in-memory-deliveries';
import { createDeliveryLifecycle, deliveryDispatchHandler } from '../src/features/deliveries/delivery-lifecycle';
import { createDeliveryService, type DeliveryServiceDeps } from '../src/features/deliveries/deliveries.service';
import { createDeliveryProofRepository } from '../src/features/deliveries/delivery-proof.repository';
import { hashPin, MAX_PIN_ATTEMPTS } from '../src/features/deliveries/delivery-pin';
import { createInMemoryDatabase } from '../src/features/jobs/in-memory-jobs';
import { fakeDriver, fakeJobPorts, fakePosition } from './helpers/fake-job-ports';

const PARTNER = { partnerId: 'org_unit', livemode: true };
const PIN = '4321';
const unused = () => {
  throw new Error('not used by these moves');
};

async function setup() {
  const memory = createInMemoryDatabase();
  const deliveries = createInMemoryDeliveriesRepository(memory);
  const courier = fakeDriver('drv_unit_courier', 'courier');
  const fake = fakeJobPorts(memory, [courier]);
  const tracking = { hashFor: () => 'hash', urlFor: () => null };
  const lifecycle = createDeliveryLifecycle(memory.db, deliveries, fake.ports, tracking);
  const service = createDeliveryService({
    db: memory.db,
    repository: deliveries,
    proofs: createDeliveryProofRepository(),
    lifecycle,
    dispatcher: { scheduleSearch: unused, offerNext: unused } as unknown as DeliveryServiceDeps['dispatcher'],
    locations: { telemetry: fake.ports.telemetry },
    logger: {} as Logger,
    pinFingerprintKey: 'unit',
    quotes: { quotedFee: unused },
    tracking,
  });
  const pinHash = await hashPin(PIN);
  const delivery = await deliveries.insert(memory.db, {
    id: 'del_unit_1',
    partner_id: PARTNER.partnerId,
    livemode: true,
    weight_tier: 'small',
    pickup_lat: 6.45,
    pickup_lng: 3.39,
    pickup_address: null,
    dropoff_lat: 6.43,
    dropoff_lng: 3.42,
    dropoff_address: null,
    sender_name: 'Ada Obi',
    sender_phone: '+2348012345678',
    recipient_name: 'Tunde Bello',
    recipient_phone: '+2348098765432',
    notes: null,
    fee_amount: 150_000,
    fee_currency: 'NGN',
    pin_hash: pinHash,
    tracking_token_hash: null,
  });
  const assign = () => memory.db.transaction((trx) => deliveryDispatchHandler(lifecycle).assign(trx, delivery.id, courier.id, fake.positions.get(courier.id) ?? null));
  return { memory, deliveries, courier, lifecycle, service, delivery, assign, ...fake };
}

describe('a delivery through its life cycle (in-memory deliveries table)', () => {
  it('assign → pick up: each change on the timeline, one event each, the courier\'s position read before the lock', async () => {
    const t = await setup();
    t.positions.set(t.courier.id, fakePosition(6.451, 3.391));
    const assigned = await t.assign();
    expect(assigned).toMatchObject({ status: 'courier_assigned', courier: { id: t.courier.id }, courier_location: { lat: 6.451 } });
    t.positions.set(t.courier.id, fakePosition(6.45, 3.39));
    const pickedUp = await t.service.pickUp(t.courier, t.delivery.id);
    expect(pickedUp).toMatchObject({ status: 'picked_up', sequence: 2, courier_location: { lat: 6.45, lng: 3.39 } });

    const [row] = t.deliveries.rows();
    expect(row!.status_timeline.map((entry) => entry.status)).toEqual(['courier_assigned', 'picked_up']);
    expect(t.outbox.map((e) => [e.type, e.sequence])).toEqual([
      ['delivery.courier_assigned', 1],
      ['delivery.picked_up', 2],
    ]);
    expect(t.calls.telemetryUnderLock).toBe(0);
  });

  it('counts wrong PINs without a status change, locks the PIN at the limit, and leaves only `fail`', async () => {
    const t = await setup();
    await t.assign();
    await t.service.pickUp(t.courier, t.delivery.id);
    for (let left = MAX_PIN_ATTEMPTS - 1; left >= 0; left--) {
      await expect(t.service.deliver(t.courier, t.delivery.id, { pin: '0000' })).rejects.toMatchObject({ status: 403, code: 'invalid_pin', extra: { remaining_attempts: left } });
    }
    await expect(t.service.deliver(t.courier, t.delivery.id, { pin: PIN })).rejects.toMatchObject({ status: 403, code: 'pin_locked' });
    expect(t.deliveries.rows()[0]).toMatchObject({ status: 'picked_up', sequence: 2, pin_failed_attempts: MAX_PIN_ATTEMPTS });
    expect(t.outbox).toHaveLength(2);

    const failed = await t.service.fail(t.courier, t.delivery.id, 'recipient_unreachable');
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'recipient_unreachable', courier_location: null });
    expect(t.freedAfterCommit).toEqual([t.courier.id]);
  });

  it('refuses moves the table does not allow: cancel after pick-up, deliver before it (409 invalid_delivery_status)', async () => {
    const t = await setup();
    await t.assign();
    await expect(t.service.deliver(t.courier, t.delivery.id, { pin: PIN })).rejects.toMatchObject({ status: 409, code: 'invalid_delivery_status' });
    await t.service.pickUp(t.courier, t.delivery.id);
    await expect(t.service.cancelByPartner(PARTNER, t.delivery.id)).rejects.toMatchObject({ status: 409, code: 'invalid_delivery_status', message: 'Cannot cancel a delivery that is picked_up' });
    expect(t.deliveries.rows()[0]).toMatchObject({ status: 'picked_up', sequence: 2, pin_failed_attempts: 0 });
  });

  it('the dispatcher gives up on a pending delivery: failed, no_couriers_available', async () => {
    const t = await setup();
    await t.memory.db.transaction((trx) => deliveryDispatchHandler(t.lifecycle).giveUp(trx, t.delivery.id));
    expect(t.deliveries.rows()[0]).toMatchObject({ status: 'failed', failure_reason: 'no_couriers_available', sequence: 1 });
    expect(t.outbox.map((e) => e.type)).toEqual(['delivery.failed']);
  });
});
