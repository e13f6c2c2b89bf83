import { crc32 } from 'node:zlib';
import { constantTimeEqual } from '@platform/service-kit/api-tokens';
import { randomString } from '@platform/service-kit/ids';
import { sha256 } from '@platform/service-kit/hash';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30; // 30 base62 characters ≈ 178 bits
const CHECKSUM_LENGTH = 6;

/**
 * API tokens look like `ck_<30 random base62><6 checksum base62>`, as GitHub's do: the prefix says which service a
 * leaked token belongs to, and the CRC32 checksum lets a mistyped token be refused without a database lookup.
 * Only the SHA-256 of the token is stored.
 */
export function generateApiToken(prefix: string): string {
  const random = randomString(BASE62, RANDOM_LENGTH);
  return `${prefix}${random}${checksum(random)}`;
}

export function isWellFormedApiToken(token: string, prefix: string): boolean {
  if (token.length !== prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH || !token.startsWith(prefix)) return false;
  const body = token.slice(prefix.length, prefix.length + RANDOM_LENGTH);
  const given = token.slice(prefix.length + RANDOM_LENGTH);
  if (!/^[0-9A-Za-z]+$/.test(body)) return false;
  return constantTimeEqual(given, checksum(body));
}

export function hashApiToken(token: string): string {
  return sha256(token);
}

/** The prefix and the last 4 characters of a token, safe to show in lists so an owner can tell keys apart. */
export function tokenHint(token: string): string {
  return `${token.slice(0, 7)}…${token.slice(-4)}`;
}

function checksum(text: string): string {
  let value = crc32(text); // Node's zlib CRC32 of the UTF-8 bytes (IEEE polynomial, as in zip and PNG)
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}
