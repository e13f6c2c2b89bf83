import type { Knex } from '@platform/service-kit/db';
import { type DeliveryAction, type DeliveryChange, type DeliveryStatus, NO_COURIERS_AVAILABLE } from '../deliveries';
import type { RideAction, RideChange, RideStatus } from '../rides';

/** The fixed, clearly fake driver and courier who hold sandbox jobs (migration 0230: disabled, never dispatched). */
export const SANDBOX_DRIVER_ID = 'drv_sandbox_driver';
export const SANDBOX_COURIER_ID = 'drv_sandbox_courier';

/**
 * Where the sandbox courier stands along a test delivery's route line (`sandbox_courier_progress`: 0 the pick-up, 1 the
 * drop-off): assigned, a quarter of the trip's length before the pick-up (its ETA counts the way there); picked up, at
 * the pick-up, then wherever `courier_progress` moves it.
 */
export const SANDBOX_ASSIGNED_PROGRESS = -0.25;

/** The failure reason of a delivery the sandbox moves to `failed` after a courier was assigned. */
export const SANDBOX_FAILURE_REASON = 'sandbox_simulated_failure';

/**
 * One transition the sandbox may make: the job's own state machine action (the life cycle still asks the state table,
 * so a move it does not allow is refused there too), the columns it sets, and whether it ends the job.
 */
export interface SandboxMove<Status extends string, Action, Change> {
  from: Status;
  to: Status;
  action: Action;
  change(trx: Knex.Transaction): Change;
  /** A move that ends the job (complete, deliver, fail, time out) closes offers and frees the assignee like any other end. */
  ends: boolean;
}

/** Rides: the forward path pending → accepted → arrived → in_progress → completed, and pending → no_drivers_available. */
export const RIDE_SANDBOX_MOVES: readonly SandboxMove<RideStatus, RideAction, RideChange>[] = [
  { from: 'pending', to: 'accepted', action: 'accept', change: () => ({ driver_id: SANDBOX_DRIVER_ID }), ends: false },
  { from: 'accepted', to: 'arrived', action: 'arrive', change: () => ({}), ends: false },
  { from: 'arrived', to: 'in_progress', action: 'start', change: () => ({}), ends: false },
  { from: 'in_progress', to: 'completed', action: 'complete', change: () => ({}), ends: true },
  { from: 'pending', to: 'no_drivers_available', action: 'time_out', change: () => ({}), ends: true },
];

/**
 * Deliveries: the forward path pending → courier_assigned → picked_up → delivered (no PIN: the sandbox is the
 * courier), and `failed` from pending (nobody accepted), courier_assigned or picked_up (the courier reports a failure).
 */
export const DELIVERY_SANDBOX_MOVES: readonly SandboxMove<DeliveryStatus, DeliveryAction, DeliveryChange>[] = [
  { from: 'pending', to: 'courier_assigned', action: 'assign', change: () => ({ courier_id: SANDBOX_COURIER_ID, sandbox_courier_progress: SANDBOX_ASSIGNED_PROGRESS }), ends: false },
  { from: 'courier_assigned', to: 'picked_up', action: 'pick_up', change: () => ({ sandbox_courier_progress: 0 }), ends: false },
  {
    from: 'picked_up',
    to: 'delivered',
    action: 'deliver',
    change: (trx) => ({ received_by: 'Sandbox Recipient', photo_url: null, delivered_lat: null, delivered_lng: null, delivered_at: trx.fn.now(), sandbox_courier_progress: 1 }),
    ends: true,
  },
  { from: 'pending', to: 'failed', action: 'time_out', change: () => ({ failure_reason: NO_COURIERS_AVAILABLE }), ends: true },
  { from: 'courier_assigned', to: 'failed', action: 'fail', change: () => ({ failure_reason: SANDBOX_FAILURE_REASON }), ends: true },
  { from: 'picked_up', to: 'failed', action: 'fail', change: () => ({ failure_reason: SANDBOX_FAILURE_REASON }), ends: true },
];

/** The shortest chain of moves from `current` to `target` (breadth first), or undefined when `target` cannot be reached. */
export function sandboxPath<Status extends string, Action, Change>(
  moves: readonly SandboxMove<Status, Action, Change>[],
  current: Status,
  target: Status,
): SandboxMove<Status, Action, Change>[] | undefined {
  const paths = new Map<Status, SandboxMove<Status, Action, Change>[]>([[current, []]]);
  const queue: Status[] = [current];
  while (queue.length > 0) {
    const status = queue.shift()!;
    for (const move of moves.filter((m) => m.from === status && !paths.has(m.to))) {
      paths.set(move.to, [...paths.get(status)!, move]);
      queue.push(move.to);
    }
  }
  return target === current ? undefined : paths.get(target);
}

/** Every status the sandbox can move a job in `current` to, nearest first. */
export function sandboxTargets<Status extends string, Action, Change>(moves: readonly SandboxMove<Status, Action, Change>[], current: Status): Status[] {
  const reached: Status[] = [];
  const queue: Status[] = [current];
  while (queue.length > 0) {
    const status = queue.shift()!;
    for (const move of moves) {
      if (move.from === status && move.to !== current && !reached.includes(move.to)) {
        reached.push(move.to);
        queue.push(move.to);
      }
    }
  }
  return reached;
}
