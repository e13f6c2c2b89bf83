import { ApiError, NotFoundError, type Knex } from '@platform/service-kit';
import type { Telemetry } from '../fleet/fleet.locations';
import type { Driver } from '../fleet/fleet.types';
import { isTerminalDelivery, type DeliveryStatus } from '../deliveries/delivery-status';
import { presentTracking, TRACKED_POSITION_STATUSES, type PublicTracking } from './tracking.presenter';
import { findTrackedDelivery } from './tracking.repository';
import { TRACKING_TOKEN_PATTERN, trackingTokenHash } from './tracking-token';

export interface TrackingServiceDeps {
  db: Knex;
  findDriver(id: string, conn: Knex): Promise<Driver | undefined>;
  telemetry(driverId: string): Promise<Telemetry | null>;
  /** TRACKING_LINK_TTL_S: how long after its final status a delivery's page still shows it. */
  linkTtlSeconds: number;
}

export const TRACKING_NOT_FOUND = 'Tracking link not found';

/** 410 `tracking_link_expired`: the delivery ended more than TRACKING_LINK_TTL_S ago; the page then only says so. */
export class TrackingLinkExpiredError extends ApiError {
  constructor() {
    super(410, 'tracking_link_expired', 'This delivery has ended and its tracking link has expired');
  }
}

/** The public view of a delivery by its tracking token. */
export function createTrackingService({ db, findDriver, telemetry, linkTtlSeconds }: TrackingServiceDeps) {
  return {
    /**
     * A token of the wrong shape is refused without a lookup; any other is looked up only by its SHA-256, so the
     * answer's timing says nothing about how close a guess was. Unknown: 404 `not_found`. Final for longer than
     * `linkTtlSeconds` (its `updated_at` is when it became final): 410 `tracking_link_expired`, showing nothing.
     */
    async track(token: string): Promise<PublicTracking> {
      if (!TRACKING_TOKEN_PATTERN.test(token)) throw new NotFoundError(TRACKING_NOT_FOUND);
      const row = await findTrackedDelivery(db, trackingTokenHash(token));
      if (!row) throw new NotFoundError(TRACKING_NOT_FOUND);
      if (isTerminalDelivery(row.status as DeliveryStatus) && Date.now() - row.updated_at.getTime() > linkTtlSeconds * 1000) throw new TrackingLinkExpiredError();
      const courier = row.courier_id ? await findDriver(row.courier_id, db) : undefined;
      const onTheJob = row.courier_id && TRACKED_POSITION_STATUSES.includes(row.status as DeliveryStatus);
      return presentTracking(row, courier, onTheJob ? await telemetry(row.courier_id!) : null);
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
