import { randomBytes } from 'node:crypto';
import { NotFoundError } from './errors';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque prefixed IDs (`ride_…`, `key_…`): 20 random base36 characters (~103 bits). */
export function newId(prefix: string): string {
  let out = '';
  for (const byte of randomBytes(40)) {
    if (byte < 252 && out.length < 20) out += ALPHABET[byte % 36];
  }
  return `${prefix}_${out}`;
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
