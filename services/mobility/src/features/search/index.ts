/** The search feature's face: what the composition root uses of it (nothing else is imported from outside). */
export { searchContract } from './search.contract';
export { searchHandlers } from './search.handlers';
export { createMobilitySearchReader } from './search.reader';
export type { MobilitySearchReader } from './search.reader';
