/** The dispatch feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { offerResponse } from './offers.schema';
export { createDispatcher } from './dispatch.service';
export type { Dispatcher } from './dispatch.service';
export { createDispatchTimers } from './dispatch.timers';
export type { DispatchJob, JobHandler, JobKind } from './dispatch.types';
export { createDispatchWorker, startSearchRetrySweeper } from './dispatch.worker';
export type { SearchRetrySweeper } from './dispatch.worker';
export { createDriverRelease } from './driver-release';
export { createOffersRepository } from './offers.repository';
