import type { Knex } from '@platform/service-kit/db';
import type { DispatchJob } from '../dispatch';
import { createJobLifecycle, type JobLifecyclePorts } from '../jobs';
import { nextRideStatus, rideEventType, type CancelledBy, type RideAction, type RideStatus } from './ride-status';
import { presentRide, type RideView } from './ride.presenter';
import type { RideLookup, RideRow, RidesRepository } from './rides.repository';

/** Columns a ride's status change may set besides the status. */
export type RideChange = { driver_id?: string; cancelled_by?: CancelledBy };

/** The ride's life cycle: its table, its state machine and its GET view, run by the shared job life cycle. */
export function createRideLifecycle(db: Knex, rides: RidesRepository, ports: JobLifecyclePorts) {
  return createJobLifecycle<RideRow, RideStatus, RideAction, RideLookup, RideChange, RideView>(
    db,
    {
      objectType: 'ride',
      notFoundMessage: 'Ride not found',
      find: rides.find,
      updateStatus: rides.updateStatus,
      nextStatus: nextRideStatus,
      eventType: rideEventType,
      assigneeOf: (ride) => ride.driver_id,
      present: presentRide,
    },
    ports,
  );
}

export type RideLifecycle = ReturnType<typeof createRideLifecycle>;

/** How the dispatcher moves a ride: it searches while pending; accept assigns the driver, time-out ends the search. */
export function rideDispatchHandler(lifecycle: RideLifecycle) {
  return lifecycle.dispatchHandler({
    kind: 'ride',
    searchingStatus: 'pending',
    toDispatchJob,
    assign: (driverId) => ({ action: 'accept', change: { driver_id: driverId } }),
    giveUp: { action: 'time_out', change: {} },
  });
}

function toDispatchJob(ride: RideRow): DispatchJob {
  return {
    kind: 'ride',
    id: ride.id,
    partnerId: ride.partner_id,
    fleetKind: 'driver',
    tier: ride.tier,
    pickup: { lat: ride.pickup_lat, lng: ride.pickup_lng, address: ride.pickup_address },
    dropoff: { lat: ride.dropoff_lat, lng: ride.dropoff_lng, address: ride.dropoff_address },
  };
}
