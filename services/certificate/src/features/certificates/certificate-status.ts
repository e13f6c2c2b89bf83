/** A certificate is stored `valid` or `revoked`; `expired` is read off its expiry date (UTC) at the moment of asking. */
export type CertificateStatus = 'valid' | 'revoked' | 'expired';

export function certificateStatus(stored: string, expiresOn: string | null, today?: string): CertificateStatus {
  if (stored === 'revoked') return 'revoked';
  // Today's date is worked out only for a certificate that can expire (most cannot): this runs on every verify.
  if (expiresOn !== null && expiresOn < (today ?? new Date().toISOString().slice(0, 10))) return 'expired';
  return 'valid';
}

/** What verifiers are told: a test certificate (issued in test mode) is `test` whatever its state, never `valid`. */
export type VerifiedStatus = CertificateStatus | 'test';

export function verifiedStatus(stored: string, expiresOn: string | null, livemode: boolean): VerifiedStatus {
  return livemode ? certificateStatus(stored, expiresOn) : 'test';
}

/** Why a test certificate is not valid, in words for a person. */
export const TEST_CERTIFICATE_REASON = 'Test certificate — not a real credential: it was issued in test mode and proves nothing.';
