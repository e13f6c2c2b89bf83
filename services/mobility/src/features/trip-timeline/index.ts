/** The trip timeline feature's face: the dashboard's history of one ride or delivery (what the composition root wires). */
export { tripTimelineContract } from './trip-timeline.contract';
export { tripTimelineHandlers } from './trip-timeline.handlers';
export { createTripTimelineRepository } from './trip-timeline.repository';
export { createTripTimelineService } from './trip-timeline.service';
export type { TripTimelineService } from './trip-timeline.service';
