/** The estimates feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { estimatesContract } from './estimates.contract';
export { estimateResponse } from './estimates.schema';
export { estimateHandlers } from './estimates.handlers';
export { createEstimatesRepository } from './estimates.repository';
export { createEstimateService, SANDBOX_PICKUP_ETA_SECONDS } from './estimates.service';
export type { EstimateService } from './estimates.service';
