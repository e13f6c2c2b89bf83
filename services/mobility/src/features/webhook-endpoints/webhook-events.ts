/** The default subscription: an endpoint registered without `events` gets every one of these (contract, section 5). */
export const WEBHOOK_EVENT_TYPES = [
  'ride.accepted',
  'ride.arrived',
  'ride.in_progress',
  'ride.completed',
  'ride.cancelled',
  'ride.no_drivers_available',
  'delivery.courier_assigned',
  'delivery.picked_up',
  'delivery.delivered',
  'delivery.failed',
  'delivery.cancelled',
  'event_pass.redeemed',
  'event_pass.released',
  'event_pass_program.budget_exhausted',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Live position events (one per job at most every 10 s or 200 m moved): opt-in only, so an endpoint registered without
 * `events` does not start receiving a stream of positions; an endpoint gets them only by listing them.
 */
export const LOCATION_EVENT_TYPES = ['ride.location_updated', 'delivery.courier_location_updated'] as const;

/** Every event type an endpoint may list in `events`. */
export const SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...LOCATION_EVENT_TYPES] as const;
