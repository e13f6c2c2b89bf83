/** A certificate is stored `valid` or `revoked`; `expired` is read off its expiry date (UTC) at the moment of asking. */
export type CertificateStatus = 'valid' | 'revoked' | 'expired';

export function certificateStatus(stored: string, expiresOn: string | null, today = new Date().toISOString().slice(0, 10)): CertificateStatus {
  if (stored === 'revoked') return 'revoked';
  if (expiresOn !== null && expiresOn < today) return 'expired';
  return 'valid';
}
