/** The event-passes feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { eventPassesContract } from './event-passes.contract';
export { eventPassProgramResponse, eventPassRedemptionResponse, eventPassResponse, issueEventPassesResponse, listEventPassProgramsResponse, listEventPassesResponse } from './event-passes.schema';
export { eventPassHandlers } from './event-passes.handlers';
export { createEventPassesRepository } from './event-passes.repository';
export { createEventPassService, EVENT_PASS_EVENT_TYPES } from './event-passes.service';
