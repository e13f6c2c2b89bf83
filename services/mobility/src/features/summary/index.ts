/** The summary feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { summaryContract } from './summary.contract';
export { mobilitySummaryDayResponse, mobilitySummaryResponse } from './summary.schema';
export { createMobilitySummaryReader, mobilitySummaryRoutes } from './summary.routes';
