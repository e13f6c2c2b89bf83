/** The tracking feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { trackingContract } from './tracking.contract';
export { routePointResponse, trackingStatusResponse } from './tracking.schema';
export { createTrackingLinks } from './tracking-token';
export { trackingHandlers } from './tracking.handlers';
export { createTrackingRepository } from './tracking.repository';
export { createTrackingService } from './tracking.service';
