import { ConflictError } from '@platform/service-kit/errors';
import { idParam } from '@platform/service-kit/ids';
import type { Handlers } from '@platform/service-kit/operations';
import { accountOf } from '../api-keys';
import { jobReadHandlers, partnerJobHandlers } from '../jobs';
import { adminAccountOf } from '../partners';
import { jobStreamHandler, type JobTelemetry } from '../telemetry';
import { isTerminal, type RideStatus } from './ride-status';
import type { ridesContract } from './rides.contract';
import type { RideService } from './rides.service';

/** A ride's id from a path: a malformed one is a 404, like an unknown one. */
export function rideId(value: unknown): string {
  return idParam('ride', value, 'Ride not found');
}

/**
 * The rides operations: the partner's (create with an optional Idempotency-Key, list, one ride, its event stream,
 * cancel) and the dashboard's reads, for any admin role, in the mode its query asks for.
 */
export function rideHandlers(rides: RideService, telemetry: JobTelemetry): Handlers<typeof ridesContract> {
  const reads = { parseId: rideId, get: rides.getRide, list: rides.listRides };
  const partner = partnerJobHandlers({ ...reads, accountOf, create: rides.createRide, cancel: rides.cancelByPartner });
  const admin = jobReadHandlers({ ...reads, accountOf: adminAccountOf });
  return {
    requestRide: partner.create,
    listRides: partner.list,
    getRide: partner.get,
    streamRide: jobStreamHandler({ parseId: rideId, get: rides.getRide, isTerminal: (status) => isTerminal(status as RideStatus) }, telemetry),
    cancelRide: partner.cancel,
    getRideReceipt: async ({ params, req }) => {
      const ride = await rides.getRide(accountOf(req), rideId(params.id));
      if (ride.status !== 'completed') throw new ConflictError(`No receipt for a ride that is ${ride.status}: a ride has one once it is completed`, 'invalid_ride_status');
      const { id, tier, pickup, dropoff, fare, passenger, driver, updated_at, livemode } = ride;
      return { status: 200, body: { ride_id: id, tier, pickup, dropoff, fare, passenger_name: passenger.name, driver_name: driver?.name ?? null, completed_at: updated_at, livemode } };
    },
    adminListRides: admin.list,
    adminGetRide: admin.get,
  };
}
