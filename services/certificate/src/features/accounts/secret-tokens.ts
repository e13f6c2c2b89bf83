import { createHash, randomBytes } from 'node:crypto';

/** An opaque secret of 256 random bits (base64url), for refresh cookies and invitation links. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this SHA-256 (hex) of a refresh or invitation token is stored; a lookup by it is a lookup by the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
