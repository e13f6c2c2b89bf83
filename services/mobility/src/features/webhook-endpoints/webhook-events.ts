import { DELIVERY_EVENT_TYPES } from '../deliveries';
import { EVENT_PASS_EVENT_TYPES } from '../event-passes';
import { RIDE_EVENT_TYPES } from '../rides';
import { LOCATION_EVENT_TYPES } from '../telemetry';

/**
 * The default subscription: an endpoint registered without `events` gets every one of these. The rides' and
 * deliveries' come from their status tables (one per status a job can move into), the event passes' from their service.
 */
export const WEBHOOK_EVENT_TYPES = [...RIDE_EVENT_TYPES, ...DELIVERY_EVENT_TYPES, ...EVENT_PASS_EVENT_TYPES] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Live position events (one per job at most every 10 s or 200 m moved): opt-in only, so an endpoint registered without
 * `events` does not start receiving a stream of positions; an endpoint gets them only by listing them.
 */
export { LOCATION_EVENT_TYPES };

/** Every event type an endpoint may list in `events` (the dashboard's and the description's list). */
export const SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...LOCATION_EVENT_TYPES] as const;

export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];
