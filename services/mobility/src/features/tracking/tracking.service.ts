import { ApiError, NotFoundError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';
import type { Driver, Telemetry } from '../fleet';
import { isTerminalDelivery, type DeliveryStatus } from '../deliveries';
import { SANDBOX_COURIER_ID } from '../sandbox';
import { ETA_STATUSES, presentTracking, TRACKED_POSITION_STATUSES, type PublicTracking } from './tracking.presenter';
import type { ProofKind, StoredImage, TrackedDeliveryRow, TrackingRepository } from './tracking.repository';
import { alongLine, routeArea } from './tracking-route';
import { TRACKING_TOKEN_PATTERN, trackingTokenHash } from './tracking-token';

export interface TrackingServiceDeps {
  db: Knex;
  repository: TrackingRepository;
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

/** The page's own address of each image of a delivery, by its token. */
export function trackingImageUrls(token: string) {
  const base = `/track/${encodeURIComponent(token)}`;
  return { logo: `${base}/logo`, proof: (kind: ProofKind) => `${base}/proof/${kind}` };
}

/**
 * The sandbox courier is one fixed driver for every test delivery, so it has no position of its own: each test
 * delivery keeps where the sandbox put it along its route (`sandbox_courier_progress`), and that is its position here.
 * Where the page shows it, it stands on the line the page draws (between the ends rounded to about 100 m), so the page
 * shows exactly that progress: along the exact ends, its projection onto the drawn line is off by up to a few per cent.
 * Heading to the pick-up it is not shown, only reckoned into the ETA, so it stays on the exact line for the real distance.
 */
function sandboxTelemetry(row: TrackedDeliveryRow): Telemetry | null {
  if (row.sandbox_courier_progress === null) return null;
  const pickup = { lat: row.pickup_lat, lng: row.pickup_lng };
  const dropoff = { lat: row.dropoff_lat, lng: row.dropoff_lng };
  const shown = TRACKED_POSITION_STATUSES.includes(row.status as DeliveryStatus);
  const at = shown ? alongLine(routeArea(pickup), routeArea(dropoff), row.sandbox_courier_progress) : alongLine(pickup, dropoff, row.sandbox_courier_progress);
  return { ...at, heading: null, speed_kph: null, updated_at: row.updated_at.toISOString() };
}

/** The public view of a delivery by its tracking token. */
export function createTrackingService({ db, repository, findDriver, telemetry, linkTtlSeconds }: TrackingServiceDeps) {
  /**
   * A token of the wrong shape is refused without a lookup; any other is looked up only by its SHA-256, so the
   * answer's timing says nothing about how close a guess was. Unknown: 404 `not_found`. Final for longer than
   * `linkTtlSeconds` (its `updated_at` is when it became final): 410 `tracking_link_expired`, showing nothing.
   */
  async function resolve(token: string): Promise<TrackedDeliveryRow> {
    if (!TRACKING_TOKEN_PATTERN.test(token)) throw new NotFoundError(TRACKING_NOT_FOUND);
    const row = await repository.findTrackedDelivery(trackingTokenHash(token));
    if (!row) throw new NotFoundError(TRACKING_NOT_FOUND);
    if (isTerminalDelivery(row.status as DeliveryStatus) && Date.now() - row.updated_at.getTime() > linkTtlSeconds * 1000) throw new TrackingLinkExpiredError();
    return row;
  }

  async function courierPosition(row: TrackedDeliveryRow): Promise<Telemetry | null> {
    if (!row.courier_id || !ETA_STATUSES.includes(row.status as DeliveryStatus)) return null;
    return row.courier_id === SANDBOX_COURIER_ID ? sandboxTelemetry(row) : telemetry(row.courier_id);
  }

  return {
    async track(token: string): Promise<PublicTracking> {
      const row = await resolve(token);
      // After the hand-over the page names no courier, so the driver is not even read.
      const courier = row.courier_id && !isTerminalDelivery(row.status as DeliveryStatus) ? await findDriver(row.courier_id, db) : undefined;
      const proof = row.status === 'delivered' ? await repository.trackedProofKinds(row.id) : [];
      return presentTracking(row, courier, await courierPosition(row), proof, trackingImageUrls(token));
    },

    /** The sending partner's logo, while the link is valid; 404 when it has none. */
    async logo(token: string): Promise<StoredImage> {
      const row = await resolve(token);
      const image = row.has_logo ? await repository.findTrackedLogo(row.id) : undefined;
      if (!image) throw new NotFoundError('No logo');
      return image;
    },

    /** A proof-of-delivery image of a delivered delivery, while the link is valid; 404 when there is none. */
    async proofImage(token: string, kind: string): Promise<StoredImage> {
      const row = await resolve(token);
      const image = row.status === 'delivered' && (kind === 'photo' || kind === 'signature') ? await repository.findTrackedProofImage(row.id, kind) : undefined;
      if (!image) throw new NotFoundError('No such proof of delivery');
      return image;
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
