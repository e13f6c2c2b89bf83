import type { z } from 'zod';
import { idParam } from '@platform/service-kit/ids';
import type { Handlers } from '@platform/service-kit/operations';
import type { deliveryResponse } from '../deliveries/deliveries.schema';
import type { Dispatcher } from '../dispatch';
import type { FleetService } from '../fleet';
import type { RideService } from '../rides';
import type { rideResponse } from '../rides/rides.schema';
import type { JobTelemetry } from '../telemetry';
import type { driverAppContract } from './driver-app.contract';
import { currentDriver } from './driver-auth';

/** A malformed offer or ride id is a job this driver does not have: 404, as an unknown one. */
const offerId = (value: string) => idParam('ofr', value, 'Offer not found');
const rideId = (value: string) => idParam('ride', value, 'Ride not found');

/** What accepting an offer answers: the job (a ride or a delivery) as its GET shows it (the dispatcher types it loosely). */
type AcceptedJob = z.input<typeof rideResponse> | z.input<typeof deliveryResponse>;

/** `/driver/v1`: the signed-in driver goes on and off line, reports where it is, answers offers and moves its rides on. */
export function driverAppHandlers(
  fleet: FleetService,
  dispatcher: Dispatcher,
  rides: RideService,
  telemetry: Pick<JobTelemetry, 'positionReported'>,
): Handlers<typeof driverAppContract> {
  return {
    setDriverAvailability: async ({ body, req }) => {
      const driver = currentDriver(req);
      if (!body.available) await dispatcher.declineOpenOffers(driver.id); // going offline passes open offers on at once
      return { status: 200, body: await fleet.setAvailability(driver, body.available) };
    },
    reportDriverLocation: async ({ body, req }) => {
      const driver = currentDriver(req);
      const recorded = await fleet.reportLocation(driver, body);
      // The job's live streams and its (throttled, opt-in) location webhook; nothing at all for a driver without a job.
      await telemetry.positionReported(driver, recorded);
      return { status: 200, body: recorded };
    },
    listDriverOffers: async ({ req }) => ({ status: 200, body: { data: await dispatcher.openOffers(currentDriver(req).id), has_more: false, next_cursor: null } }),
    acceptOffer: async ({ params, req }) => ({ status: 200, body: (await dispatcher.accept(currentDriver(req).id, offerId(params.id))) as AcceptedJob }),
    declineOffer: async ({ params, req }) => ({ status: 200, body: await dispatcher.decline(currentDriver(req).id, offerId(params.id)) }),
    driverArrived: async ({ params, req }) => ({ status: 200, body: await rides.driverMove(currentDriver(req), rideId(params.id), 'arrive') }),
    driverStartRide: async ({ params, req }) => ({ status: 200, body: await rides.driverMove(currentDriver(req), rideId(params.id), 'start') }),
    driverCompleteRide: async ({ params, req }) => ({ status: 200, body: await rides.driverMove(currentDriver(req), rideId(params.id), 'complete') }),
    driverCancelRide: async ({ params, req }) => ({ status: 200, body: await rides.driverMove(currentDriver(req), rideId(params.id), 'cancel') }),
  };
}
