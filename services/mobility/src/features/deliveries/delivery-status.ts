import { ConflictError } from '@platform/service-kit/errors';

/** The delivery state machine: the table below is the whole of it. */
export const DELIVERY_STATUSES = ['pending', 'courier_assigned', 'picked_up', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * `fail` is the courier reporting a failure, so it needs a courier: `courier_assigned` or `picked_up`.
 * `time_out` is the system giving up on a `pending` delivery nobody accepted (→ `failed`, reason `no_couriers_available`).
 * `cancel` is the partner, before pick-up only.
 */
export const DELIVERY_ACTIONS = ['assign', 'pick_up', 'deliver', 'fail', 'cancel', 'time_out'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

export const DELIVERY_TRANSITIONS: Record<DeliveryStatus, Partial<Record<DeliveryAction, DeliveryStatus>>> = {
  pending: { assign: 'courier_assigned', cancel: 'cancelled', time_out: 'failed' },
  courier_assigned: { pick_up: 'picked_up', fail: 'failed', cancel: 'cancelled' },
  picked_up: { deliver: 'delivered', fail: 'failed' },
  delivered: {},
  failed: {},
  cancelled: {},
};

/** Statuses in which a courier is on the job: the delivery shows the courier's live location. */
export const COURIER_ACTIVE_STATUSES: readonly DeliveryStatus[] = ['courier_assigned', 'picked_up'];

/** The failure reason when nobody accepted within DISPATCH_TIMEOUT_S. */
export const NO_COURIERS_AVAILABLE = 'no_couriers_available';

export function isTerminalDelivery(status: DeliveryStatus): boolean {
  return Object.keys(DELIVERY_TRANSITIONS[status]).length === 0;
}

const ACTION_VERBS: Record<DeliveryAction, string> = {
  assign: 'assign a courier to',
  pick_up: 'pick up',
  deliver: 'deliver',
  fail: 'fail',
  cancel: 'cancel',
  time_out: 'time out',
};

/** The status after `action`, or a 409 naming the current status. */
export function nextDeliveryStatus(current: DeliveryStatus, action: DeliveryAction): DeliveryStatus {
  const next = DELIVERY_TRANSITIONS[current][action];
  if (!next) {
    throw new ConflictError(`Cannot ${ACTION_VERBS[action]} a delivery that is ${current}`, 'invalid_delivery_status');
  }
  return next;
}

/** The webhook event type a change into `status` emits. */
export function deliveryEventType<S extends DeliveryStatus>(status: S): `delivery.${S}` {
  return `delivery.${status}`;
}

/** The statuses a delivery can move into (every target in the table), in the table's order. */
const ENTERED_STATUSES = DELIVERY_STATUSES.filter((status) => Object.values(DELIVERY_TRANSITIONS).some((moves) => Object.values(moves).includes(status)));

/** The webhook event types delivery status changes emit: one per status a delivery can move into. */
export const DELIVERY_EVENT_TYPES: readonly `delivery.${DeliveryStatus}`[] = ENTERED_STATUSES.map(deliveryEventType);
