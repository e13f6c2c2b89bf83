import { randomBytes } from 'node:crypto';
import { NotFoundError } from './errors';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from `alphabet` with the system's CSPRNG. Bytes at or above the largest multiple
 * of the alphabet's size are dropped (rejection sampling), so no character is likelier than another (no modulo bias).
 */
export function randomString(alphabet: string, length: number): string {
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError('alphabet must hold 2 to 256 characters');
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/** Opaque prefixed IDs (`ride_…`, `key_…`): 20 random base36 characters (~103 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomString(BASE36, 20)}`;
}

/** Whether a path parameter has the shape of one of our IDs; anything else is a 404 without a query. */
export function isIdOf(prefix: string, value: string): boolean {
  return value.length === prefix.length + 21 && value.startsWith(`${prefix}_`) && /^[0-9a-z]{20}$/.test(value.slice(prefix.length + 1));
}

/** A path parameter that must be one of our IDs: anything of another shape is a 404 with `notFound`, answered without a query. */
export function idParam(prefix: string, value: unknown, notFound: string): string {
  if (typeof value !== 'string' || !isIdOf(prefix, value)) throw new NotFoundError(notFound);
  return value;
}
