import type { Tier } from '../../platform/pricing';
import type { DeliveryStatus } from '../deliveries';

/** The status as the recipient reads it (the live region announces it on every change). */
export const STATUS_TEXT: Record<DeliveryStatus, string> = {
  pending: 'We are finding a courier for your parcel.',
  courier_assigned: 'A courier is on the way to collect your parcel.',
  picked_up: 'Your parcel is on its way.',
  delivered: 'Your parcel has been delivered.',
  failed: 'The delivery could not be completed.',
  cancelled: 'The delivery was cancelled.',
};

/** The timeline's short labels. */
export const TIMELINE_TEXT: Record<DeliveryStatus, string> = {
  pending: 'Order placed',
  courier_assigned: 'Courier assigned',
  picked_up: 'Picked up',
  delivered: 'Delivered',
  failed: 'Delivery failed',
  cancelled: 'Cancelled',
};

/**
 * The ETA line's words before the minutes: what arrives where. The ETA is the parcel's at the drop-off (through the
 * pick-up while the courier is still on the way to collect it), never the courier's at the pick-up.
 */
export const ETA_TEXT = 'Parcel expected at the drop-off in about ';

/** The fleet's vehicle tiers in words. */
export const VEHICLE_TYPE_TEXT: Record<Tier, string> = { moto: 'Motorbike', economy: 'Car', comfort: 'Car', xl: 'Van' };

/** The route drawing's accent when the partner set none (contrast 6.7:1 on white). */
export const DEFAULT_BRAND_COLOR = '#1d4ed8';

/** The TEST marker of a sandbox delivery. */
export const TEST_MARKER_TEXT = 'TEST delivery: made with a test key in the sandbox. No real courier, nothing is delivered.';

/** The courier line once the delivery is final: its name and plate leave the page with the hand-over. */
export const COURIER_GONE_TEXT = "The delivery has ended; the courier's details are no longer shown.";

/** The courier line of a test delivery: the sandbox courier has no real name or vehicle to show. */
export const SANDBOX_COURIER_TEXT = 'Sandbox courier';

/** A vehicle field the fleet left unknown: never shown. */
export const UNKNOWN_VEHICLE_VALUES = ['', 'none', 'unknown', 'n/a'];

/** The map's legend while the delivery is under way, and once it is final (no courier any more). */
export const LEGEND_TEXT = {
  live: 'Hollow dot: the pick-up. Dark dot: the drop-off area. Coloured dot: your courier, shown once your parcel is on its way and clear of the pick-up. The line is straight, not the road.',
  final: 'Hollow dot: the pick-up. Dark dot: the drop-off area. The line is straight, not the road.',
};

/** The footer's note on refreshing: the page polls only until the delivery is final. */
export const REFRESH_TEXT = {
  live: 'This page refreshes by itself until the delivery is complete.',
  final: 'This delivery has ended; this page no longer refreshes.',
};

/** The words before the time a final delivery ended, by its status. */
export const ENDED_TEXT: Partial<Record<DeliveryStatus, string>> = { delivered: 'Delivered at ', failed: 'Ended at ', cancelled: 'Cancelled at ' };

/** The drawing's text alternative once final. */
export const FINAL_ROUTE_LABEL: Partial<Record<DeliveryStatus, string>> = {
  delivered: 'Route from the pick-up to the drop-off; the parcel was delivered',
  failed: 'Route from the pick-up to the drop-off; the delivery failed',
  cancelled: 'Route from the pick-up to the drop-off; the delivery was cancelled',
};
