/** The summary feature's face: what other features use of it. */
export { summaryHandlers } from './summary.handlers';
export { createSummaryReader, type SummaryReader } from './summary.reader';
