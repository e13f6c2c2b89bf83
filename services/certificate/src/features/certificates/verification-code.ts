import { randomString } from '@platform/service-kit/ids';

/** 31 symbols that are easy to read aloud: no 0/O, 1/I/L. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 18; // 18 × log2(31) ≈ 89 bits
const PATTERN = new RegExp(`^[${ALPHABET}]{${LENGTH}}$`);

export function newVerificationCode(): string {
  return randomString(ALPHABET, LENGTH);
}

/** Groups of six for people (`ABCDEF-GHJKMN-PQRSTU`); lookups accept any case, spaces and dashes. */
export function formatVerificationCode(code: string): string {
  return code.match(/.{1,6}/g)!.join('-');
}

/** The stored form of a code a person typed, or null when it cannot be one of ours (no database lookup needed). */
export function normalizeVerificationCode(input: string): string | null {
  if (input.length > 64) return null;
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  return PATTERN.test(compact) ? compact : null;
}
