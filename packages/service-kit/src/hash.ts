import crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: string, outputEncoding: 'hex' | 'base64url') => string;

/** `crypto.hash` (Node ≥ 20.12): one call instead of a Hash object, about twice as fast for the short inputs of a request. */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/** SHA-256 of a UTF-8 string, as `hex` or `base64url` (token hashes, ETags, rate-limit keys on the hot paths). */
export function sha256(data: string, encoding: 'hex' | 'base64url' = 'hex'): string {
  return oneShot ? oneShot('sha256', data, encoding) : crypto.createHash('sha256').update(data).digest(encoding);
}
