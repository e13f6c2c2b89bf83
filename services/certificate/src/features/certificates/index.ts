/** The certificates feature's face: what other features use of it. */
export { certificateStatus, TEST_CERTIFICATE_REASON, verifiedStatus, type VerifiedStatus } from './certificate-status';
export { formatVerificationCode, normalizeVerificationCode } from './verification-code';
export type { CertificateRow, CertificatesRepository, DeliveryOutcome, DeliveryStatus } from './certificates.repository';
export type { RecipientMailer } from './certificates.service';
