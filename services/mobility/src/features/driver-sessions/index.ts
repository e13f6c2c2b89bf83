/** The driver-sessions feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { driverSessionsContract } from './driver-sessions.contract';
export { driverSessionResponse } from './driver-sessions.schema';
export { scheduleDriverCredentialRetention } from './credential-retention';
export { driverSessionsHandlers } from './driver-sessions.handlers';
export { createDriverSessionsRepository } from './driver-sessions.repository';
export { createDriverSessionService } from './driver-sessions.service';
export type { IssuedActivationCode } from './driver-sessions.service';
export { createSignInThrottle } from './signin-throttle';
