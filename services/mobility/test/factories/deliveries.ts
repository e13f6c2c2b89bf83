import type { TestContext } from '../helpers/context';
import type { AdminIdentity } from './auth';
import { offset, onlineDriver, type Point } from './fleet';
import type { partnerApi } from './rides';

export function deliveryBody(pickup: Point, overrides: Record<string, unknown> = {}) {
  return {
    pickup: { ...pickup, address: '5 Warehouse Lane' },
    dropoff: { ...offset(pickup, 2000, 1500), address: '12 Recipient Close' },
    sender: { name: 'Shop Owner', phone: '+234 803 111 1111' },
    recipient: { name: 'Chidi Eze', phone: '+234 804 222 2222' },
    weight_tier: 'small',
    ...overrides,
  };
}

/** A registered courier (moto tier carries small and medium parcels), online at `at`. */
export async function onlineCourier(ctx: TestContext, at: Point, overrides: Record<string, unknown> = {}, operator?: AdminIdentity) {
  return onlineDriver(ctx, at, { kind: 'courier', tier: 'moto', vehicle: { make: 'Honda', model: 'CG125', plate: `MC-${Math.random().toString(36).slice(2, 7)}`, color: 'red' }, ...overrides }, operator);
}

export type Courier = Awaited<ReturnType<typeof onlineCourier>>;

/** Creates a delivery and has `courier` accept its offer; answers the delivery id and its PIN. */
export async function assignedDelivery(partner: ReturnType<typeof partnerApi>, courier: Courier, pickup: Point, overrides: Record<string, unknown> = {}) {
  const created = await partner.post('/api/v1/deliveries', deliveryBody(pickup, overrides)).expect(201);
  const offer = (await courier.app.offers()).find((o) => o.delivery_id === created.body.id);
  if (!offer) throw new Error(`courier got no offer for ${created.body.id}`);
  await courier.app.post(`/offers/${offer.id}/accept`).expect(200);
  return { id: created.body.id as string, pin: (overrides.security_pin as string | undefined) ?? (created.body.security_pin as string) };
}

/** Creates, assigns and picks up a delivery. */
export async function pickedUpDelivery(partner: ReturnType<typeof partnerApi>, courier: Courier, pickup: Point, overrides: Record<string, unknown> = {}) {
  const delivery = await assignedDelivery(partner, courier, pickup, overrides);
  await courier.app.post(`/deliveries/${delivery.id}/pickup`).expect(200);
  return delivery;
}
