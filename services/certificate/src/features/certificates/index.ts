/** The certificates feature's face: what other features use of it. */
export { certificateStatus } from './certificate-status';
export { certificateAdminRoutes } from './certificates.routes';
export { formatVerificationCode, normalizeVerificationCode } from './verification-code';
