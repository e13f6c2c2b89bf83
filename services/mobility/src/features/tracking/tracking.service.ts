import { NotFoundError, type Knex } from '@platform/service-kit';
import type { Telemetry } from '../fleet/fleet.locations';
import type { Driver } from '../fleet/fleet.types';
import { COURIER_ACTIVE_STATUSES, type DeliveryStatus } from '../deliveries/delivery-status';
import { presentTracking, type PublicTracking } from './tracking.presenter';
import { findTrackedDelivery } from './tracking.repository';
import { TRACKING_TOKEN_PATTERN, trackingTokenHash } from './tracking-token';

export interface TrackingServiceDeps {
  db: Knex;
  findDriver(id: string, conn: Knex): Promise<Driver | undefined>;
  telemetry(driverId: string): Promise<Telemetry | null>;
}

export const TRACKING_NOT_FOUND = 'Tracking link not found';

/** The public view of a delivery by its tracking token. */
export function createTrackingService({ db, findDriver, telemetry }: TrackingServiceDeps) {
  return {
    /**
     * A token of the wrong shape is refused without a lookup; any other is looked up only by its SHA-256, so the
     * answer's timing says nothing about how close a guess was. Unknown: 404 `not_found`.
     */
    async track(token: string): Promise<PublicTracking> {
      if (!TRACKING_TOKEN_PATTERN.test(token)) throw new NotFoundError(TRACKING_NOT_FOUND);
      const row = await findTrackedDelivery(db, trackingTokenHash(token));
      if (!row) throw new NotFoundError(TRACKING_NOT_FOUND);
      const courier = row.courier_id ? await findDriver(row.courier_id, db) : undefined;
      const onTheJob = row.courier_id && COURIER_ACTIVE_STATUSES.includes(row.status as DeliveryStatus);
      return presentTracking(row, courier, onTheJob ? await telemetry(row.courier_id!) : null);
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
