/** Every event type an endpoint can subscribe to (contract, section 5); an endpoint registered without `events` gets them all. */
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
