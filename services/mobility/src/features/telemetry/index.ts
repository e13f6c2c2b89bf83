/** The telemetry feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { deliveryLocationUpdateResponse, jobLocationUpdateResponse, rideLocationUpdateResponse } from './telemetry.schema';
export { jobStreamHandler } from './job-stream.handlers';
export { streamSlotHook } from './stream-limits';
export type { StreamedJobs } from './job-stream.handlers';
export { createLocationEventsRepository } from './location-events.repository';
export { createJobTelemetry, LOCATION_EVENT_TYPES } from './job-telemetry.service';
export type { JobTelemetry } from './job-telemetry.service';
