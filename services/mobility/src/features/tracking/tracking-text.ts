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
