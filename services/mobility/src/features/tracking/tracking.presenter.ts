import { greatCircleMeters } from '../../geo';
import { ROAD_FACTOR, travelSeconds } from '../../pricing';
import type { Telemetry } from '../fleet/fleet.locations';
import type { Driver } from '../fleet/fleet.types';
import { isTerminalDelivery, type DeliveryStatus } from '../deliveries/delivery-status';
import type { TrackedDeliveryRow } from './tracking.repository';

/**
 * The statuses in which the page shows the courier's position: between pick-up and drop-off only (the delivery state
 * machine has `picked_up` there; there is no separate in-transit status). While `courier_assigned` the courier is heading
 * to the pick-up, so the position would disclose the sender's address at hand-over.
 */
export const TRACKED_POSITION_STATUSES: readonly DeliveryStatus[] = ['picked_up'];

/** How the page polls: every 3 s until the delivery is final. */
export const TRACKING_POLL_MS = 3000;

/**
 * What the public tracking page and its JSON show, and nothing else: the status and its timeline, the courier's first
 * name and vehicle, the courier's position while carrying the parcel, how far it is from the drop-off area (rounded to about
 * 100 m) and, once the parcel is on its way, an ETA. Never the PIN, a phone number, the sender, the pick-up, an id or notes.
 */
export function presentTracking(row: TrackedDeliveryRow, courier: Driver | undefined, telemetry: Telemetry | null) {
  const status = row.status as DeliveryStatus;
  const active = TRACKED_POSITION_STATUSES.includes(status);
  const position = active && telemetry ? { lat: telemetry.lat, lng: telemetry.lng, heading: telemetry.heading, updated_at: telemetry.updated_at } : null;
  const dropoff = { lat: row.dropoff_lat, lng: row.dropoff_lng };
  const meters = position ? Math.round(greatCircleMeters(position, dropoff)) : null;
  return {
    status,
    final: isTerminalDelivery(status),
    timeline: [
      { status: 'pending', at: row.created_at.toISOString() },
      ...row.status_timeline.map((entry) => ({ status: entry.status, at: new Date(entry.at).toISOString() })),
    ],
    courier: courier
      ? {
          first_name: courier.name.trim().split(/\s+/)[0]!,
          vehicle: { type: courier.tier, make: courier.vehicle.make, model: courier.vehicle.model, color: courier.vehicle.color, plate: courier.vehicle.plate },
        }
      : null,
    courier_location: position,
    dropoff_area: { lat: Math.round(dropoff.lat * 1000) / 1000, lng: Math.round(dropoff.lng * 1000) / 1000 },
    distance_meters: meters,
    // Only once the parcel is on board: before that the courier still has to reach the (undisclosed) pick-up.
    eta_seconds: status === 'picked_up' && meters !== null && courier ? travelSeconds(courier.tier, meters * ROAD_FACTOR) : null,
    poll_after_ms: isTerminalDelivery(status) ? null : TRACKING_POLL_MS,
    updated_at: row.updated_at.toISOString(),
  };
}

export type PublicTracking = ReturnType<typeof presentTracking>;
