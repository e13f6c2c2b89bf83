/** The outbox feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { eventsContract } from './events.contract';
export { webhookEventContract } from './webhook-event.contract';
export { listEventsResponse, webhookEventResponse } from './events.schema';
export { eventHandlers } from './events.handlers';
export { createEventsRepository } from './events.repository';
export { createEventsService } from './events.service';
export { appendOutboxEvent } from './outbox.repository';
