/** The rides feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { ridesContract } from './rides.contract';
export { listRidesResponse, rideFareResponse, rideResponse, rideStatusResponse, vehicleLocationResponse } from './rides.schema';
export { createRideLifecycle, rideDispatchHandler } from './ride-lifecycle';
export type { RideChange, RideLifecycle } from './ride-lifecycle';
export { ACTIVE_STATUSES, RIDE_EVENT_TYPES, RIDE_STATUSES } from './ride-status';
export type { RideAction, RideStatus } from './ride-status';
export { createKnexRidesRepository } from './rides.repository';
export { rideHandlers, rideId } from './rides.handlers';
export { createRideService } from './rides.service';
export type { RideService } from './rides.service';
