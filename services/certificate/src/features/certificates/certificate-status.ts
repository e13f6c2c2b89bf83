/** A certificate is stored `valid` or `revoked`; `expired` is read off its expiry date (UTC) at the moment of asking. */
export type CertificateStatus = 'valid' | 'revoked' | 'expired';

export function certificateStatus(stored: string, expiresOn: string | null, today?: string): CertificateStatus {
  if (stored === 'revoked') return 'revoked';
  // Today's date is worked out only for a certificate that can expire (most cannot): this runs on every verify.
  if (expiresOn !== null && expiresOn < (today ?? new Date().toISOString().slice(0, 10))) return 'expired';
  return 'valid';
}
