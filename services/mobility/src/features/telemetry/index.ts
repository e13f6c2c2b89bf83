/** The telemetry feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { deliveryLocationUpdateResponse, jobLocationUpdateResponse, rideLocationUpdateResponse } from './telemetry.schema';
export { partnerJobStreamRoutes } from './job-stream.routes';
export { createLocationEventsRepository } from './location-events.repository';
export { createJobTelemetry, LOCATION_EVENT_TYPES } from './job-telemetry.service';
export type { JobTelemetry } from './job-telemetry.service';
