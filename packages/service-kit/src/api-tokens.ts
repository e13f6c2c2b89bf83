import { timingSafeEqual } from 'node:crypto';

/** A bearer token from `Authorization: Bearer <token>` (case-insensitive scheme), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/** Compares secrets in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left); // same work either way
    return false;
  }
  return timingSafeEqual(left, right);
}
