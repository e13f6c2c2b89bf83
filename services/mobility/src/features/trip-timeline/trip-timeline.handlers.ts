import type { Handlers } from '@platform/service-kit/operations';
import { deliveryId } from '../deliveries';
import { adminAccountOf } from '../partners';
import { rideId } from '../rides';
import type { tripTimelineContract } from './trip-timeline.contract';
import type { TripTimelineService } from './trip-timeline.service';

/** `/admin/v1/{rides|deliveries}/{id}/timeline`: any admin role, in the mode its query asks for. */
export function tripTimelineHandlers(timelines: TripTimelineService): Handlers<typeof tripTimelineContract> {
  return {
    adminGetRideTimeline: async ({ params, req }) => ({ status: 200, body: await timelines.ride(adminAccountOf(req), rideId(params.id)) }),
    adminGetDeliveryTimeline: async ({ params, req }) => ({ status: 200, body: await timelines.delivery(adminAccountOf(req), deliveryId(params.id)) }),
  };
}
