import { greatCircleMeters, type LatLng } from '../../platform/geo';
import { ROAD_FACTOR, travelSeconds } from '../../platform/pricing';
import type { Driver, Telemetry } from '../fleet';
import { isTerminalDelivery, type DeliveryStatus } from '../deliveries';
import { projectRoute, routeArea } from './tracking-route';
import type { ProofKind, TrackedDeliveryRow } from './tracking.repository';
import type { z } from 'zod';
import type { trackingStatusResponse } from './tracking.schema';

/**
 * The statuses in which the page shows the courier's position: between pick-up and drop-off only (the delivery state
 * machine has `picked_up` there; there is no separate in-transit status). While `courier_assigned` the courier is heading
 * to the pick-up: its position is used for the ETA only, never shown.
 */
export const TRACKED_POSITION_STATUSES: readonly DeliveryStatus[] = ['picked_up'];

/** The statuses with an ETA: from assignment (courier → pick-up → drop-off) until hand-over. */
export const ETA_STATUSES: readonly DeliveryStatus[] = ['courier_assigned', 'picked_up'];

/**
 * No courier position closer than this to the exact pick-up point is ever shown (nor its distance, nor its place on
 * the drawn line): at the hand-over the courier stands on the sender's address, and the recipient needs the approach to
 * the drop-off, not where the parcel came from. 300 m is a few city blocks, the same order as the drop-off area's
 * rounding plus a courier's GPS error. A drop-off closer than this to the pick-up never shows a position at all.
 */
export const PICKUP_PRIVACY_RADIUS_M = 300;

/**
 * The ETA is given in whole minutes (what the page shows anyway): to the second, the ETA of a courier standing at the
 * pick-up would be the pick-up's exact distance from the drop-off, and with the drawing's bearing, its address.
 */
const ETA_STEP_S = 60;

/** How the page polls: every 3 s until the delivery is final. */
export const TRACKING_POLL_MS = 3000;

/**
 * The ETA as delivery estimates reckon it: straight-line metres × ROAD_FACTOR at the courier's tier's average speed
 * (pricing.ts). Assigned: the courier's way to the pick-up plus the trip; picked up: the courier's way to the drop-off.
 */
function etaSeconds(status: DeliveryStatus, courier: Driver | undefined, at: LatLng | null, pickup: LatLng, dropoff: LatLng): number | null {
  if (!courier || !at || !ETA_STATUSES.includes(status)) return null;
  const meters = status === 'courier_assigned' ? greatCircleMeters(at, pickup) + greatCircleMeters(pickup, dropoff) : greatCircleMeters(at, dropoff);
  return Math.max(ETA_STEP_S, Math.round(travelSeconds(courier.tier, meters * ROAD_FACTOR) / ETA_STEP_S) * ETA_STEP_S);
}

/** The page's own URLs of a delivery's images (served from this origin: the page asks nothing of anyone else). */
export interface TrackingImageUrls {
  logo: string;
  proof(kind: ProofKind): string;
}

/**
 * Whether the page may show this position: only while the courier carries the parcel (TRACKED_POSITION_STATUSES) and
 * only once it is PICKUP_PRIVACY_RADIUS_M or farther from the exact pick-up point.
 */
export function isShownPosition(status: DeliveryStatus, at: LatLng | null, pickup: LatLng): at is LatLng {
  return at !== null && TRACKED_POSITION_STATUSES.includes(status) && greatCircleMeters(at, pickup) >= PICKUP_PRIVACY_RADIUS_M;
}

/**
 * What the public tracking page and its JSON show, and nothing else: the sending partner's name, logo and colour, the
 * status and its timeline, the courier's first name and vehicle until the delivery is final (never after the hand-over),
 * the route drawn as points in the page's drawing (the courier on it while carrying the parcel, once it is
 * PICKUP_PRIVACY_RADIUS_M from the pick-up), how far the courier is from the drop-off area (about 100 m), an ETA from
 * assignment on, whether it is a test delivery and, once delivered, the proof of delivery. Never the PIN, a phone
 * number, the sender's contact, the pick-up's address or coordinates, an id or notes.
 */
export function presentTracking(row: TrackedDeliveryRow, courier: Driver | undefined, telemetry: Telemetry | null, proof: ProofKind[], urls: TrackingImageUrls): z.input<typeof trackingStatusResponse> {
  const status = row.status as DeliveryStatus;
  const pickup = { lat: row.pickup_lat, lng: row.pickup_lng };
  const dropoff = { lat: row.dropoff_lat, lng: row.dropoff_lng };
  const shown = isShownPosition(status, telemetry, pickup) ? telemetry : null;
  const position = shown ? { lat: shown.lat, lng: shown.lng, heading: shown.heading, updated_at: shown.updated_at } : null;
  const meters = position ? Math.round(greatCircleMeters(position, dropoff)) : null;
  return {
    status,
    final: isTerminalDelivery(status),
    test: !row.livemode,
    partner: { name: row.partner_name, logo_url: row.has_logo ? urls.logo : null, brand_color: row.brand_color },
    timeline: [
      { status: 'pending' as const, at: row.created_at.toISOString() },
      ...row.status_timeline.map((entry) => ({ status: entry.status, at: new Date(entry.at).toISOString() })),
    ],
    // Once handed over (or failed, or cancelled) the courier's name and plate leave the page.
    courier: courier && !isTerminalDelivery(status)
      ? {
          first_name: courier.name.trim().split(/\s+/)[0]!,
          vehicle: { type: courier.tier, make: courier.vehicle.make, model: courier.vehicle.model, color: courier.vehicle.color, plate: courier.vehicle.plate },
        }
      : null,
    courier_location: position,
    dropoff_area: routeArea(dropoff),
    route: projectRoute(routeArea(pickup), routeArea(dropoff), position),
    distance_meters: meters,
    eta_seconds: etaSeconds(status, courier, telemetry, pickup, dropoff),
    proof_of_delivery:
      status === 'delivered'
        ? {
            received_by: row.received_by,
            photo_url: proof.includes('photo') ? urls.proof('photo') : null,
            signature_url: proof.includes('signature') ? urls.proof('signature') : null,
          }
        : null,
    poll_after_ms: isTerminalDelivery(status) ? null : TRACKING_POLL_MS,
    updated_at: row.updated_at.toISOString(),
  };
}

export type PublicTracking = ReturnType<typeof presentTracking>;
