import { ConflictError } from '@platform/service-kit/errors';

/** The ride state machine: the table below is the whole of it. */
export const RIDE_STATUSES = ['pending', 'accepted', 'arrived', 'in_progress', 'completed', 'cancelled', 'no_drivers_available'] as const;
export type RideStatus = (typeof RIDE_STATUSES)[number];

export const RIDE_ACTIONS = ['accept', 'arrive', 'start', 'complete', 'cancel', 'time_out'] as const;
export type RideAction = (typeof RIDE_ACTIONS)[number];

export type CancelledBy = 'partner' | 'driver' | 'system';

export const RIDE_TRANSITIONS: Record<RideStatus, Partial<Record<RideAction, RideStatus>>> = {
  pending: { accept: 'accepted', cancel: 'cancelled', time_out: 'no_drivers_available' },
  accepted: { arrive: 'arrived', cancel: 'cancelled' },
  arrived: { start: 'in_progress', cancel: 'cancelled' },
  in_progress: { complete: 'completed', cancel: 'cancelled' },
  completed: {},
  cancelled: {},
  no_drivers_available: {},
};

/** Statuses in which a driver is assigned and moving: the ride shows the vehicle's location. */
export const ACTIVE_STATUSES: readonly RideStatus[] = ['accepted', 'arrived', 'in_progress'];

export function isTerminal(status: RideStatus): boolean {
  return Object.keys(RIDE_TRANSITIONS[status]).length === 0;
}

const ACTION_VERBS: Record<RideAction, string> = {
  accept: 'accept',
  arrive: 'mark arrived',
  start: 'start',
  complete: 'complete',
  cancel: 'cancel',
  time_out: 'time out',
};

/** The status after `action`, or a 409 naming the current status. */
export function nextRideStatus(current: RideStatus, action: RideAction): RideStatus {
  const next = RIDE_TRANSITIONS[current][action];
  if (!next) {
    throw new ConflictError(`Cannot ${ACTION_VERBS[action]} a ride that is ${current}`, 'invalid_ride_status');
  }
  return next;
}

/** The webhook event type a change into `status` emits. */
export function rideEventType<S extends RideStatus>(status: S): `ride.${S}` {
  return `ride.${status}`;
}

/** The statuses a ride can move into (every target in the table), in the table's order. */
const ENTERED_STATUSES = RIDE_STATUSES.filter((status) => Object.values(RIDE_TRANSITIONS).some((moves) => Object.values(moves).includes(status)));

/** The webhook event types ride status changes emit: one per status a ride can move into. */
export const RIDE_EVENT_TYPES: readonly `ride.${RideStatus}`[] = ENTERED_STATUSES.map(rideEventType);
