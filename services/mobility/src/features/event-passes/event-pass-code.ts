import { createHash, randomBytes } from 'node:crypto';

/** Crockford base32: no I, L, O or U, so a code read aloud or typed is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 13 characters of 5 bits: 65 bits from the CSPRNG, beyond guessing. */
const CODE_CHARS = 13;

/** A new pass code, `EVT-XXXX-XXXX-XXXXX`. */
export function newPassCode(): string {
  const bytes = randomBytes(CODE_CHARS);
  // Each byte's low 5 bits is uniform over the 32 symbols.
  const chars = Array.from(bytes, (byte) => ALPHABET[byte & 31]).join('');
  return `EVT-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/**
 * The 13 significant characters of a code as typed: case, spaces and dashes ignored, the `EVT` prefix optional, and the
 * Crockford look-alikes read as digits (O → 0, I and L → 1). Anything else is `undefined`.
 */
export function normalizePassCode(input: string): string | undefined {
  let chars = input.toUpperCase().replace(/[\s-]/g, '');
  if (chars.length === CODE_CHARS + 3 && chars.startsWith('EVT')) chars = chars.slice(3);
  chars = chars.replace(/O/g, '0').replace(/[IL]/g, '1');
  if (chars.length !== CODE_CHARS || [...chars].some((c) => !ALPHABET.includes(c))) return undefined;
  return chars;
}

/** The lookup key stored for a code: SHA-256 of its normalized characters. */
export function passCodeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}
