/** The certificates feature's face: what other features use of it. */
export { certificateStatus } from './certificate-status';
export { formatVerificationCode, normalizeVerificationCode } from './verification-code';
