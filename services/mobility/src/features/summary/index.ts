/** The summary feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { summaryContract } from './summary.contract';
export { mobilitySummaryDayResponse, mobilitySummaryResponse } from './summary.schema';
export { summaryHandlers } from './summary.handlers';
export { createMobilitySummaryReader } from './summary.reader';
export type { MobilitySummaryReader } from './summary.reader';
