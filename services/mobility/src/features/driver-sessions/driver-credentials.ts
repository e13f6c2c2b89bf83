import { createHash, randomBytes } from 'node:crypto';
import { randomString } from '@platform/service-kit/ids';
import { signJwt } from '@platform/service-kit/admin-auth';

/** Crockford base32: no I, L, O or U, so a code read out over the phone or typed on a handset is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 characters of 5 bits: 60 bits from the CSPRNG; with the sign-in throttle and the 24 h expiry, beyond guessing. */
const CODE_CHARS = 12;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `drt_` + 43 base62 characters: about 256 bits. */
const REFRESH_TOKEN = /^drt_[0-9A-Za-z]{43}$/;

/** A new activation code, `XXXX-XXXX-XXXX`. */
export function newActivationCode(): string {
  // Each byte's low 5 bits is uniform over the 32 symbols.
  const chars = Array.from(randomBytes(CODE_CHARS), (byte) => ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/**
 * The 12 significant characters of a code as typed: case, spaces and dashes ignored, the Crockford look-alikes read as
 * digits (O → 0, I and L → 1). Anything else is `undefined` (refused without a lookup).
 */
export function normalizeActivationCode(input: string): string | undefined {
  const chars = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (chars.length !== CODE_CHARS || [...chars].some((c) => !ALPHABET.includes(c))) return undefined;
  return chars;
}

/** What is stored for a code or a refresh token: its SHA-256 (hex). The lookup is by this hash, never by the secret. */
export function secretHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newRefreshToken(): string {
  return `drt_${randomString(BASE62, 43)}`;
}

export function isRefreshTokenShaped(value: string): boolean {
  return REFRESH_TOKEN.test(value);
}

export interface AccessTokenSettings {
  secret: string;
  issuer: string;
  ttlSeconds: number;
}

/** The driver app's access token: the usual driver JWT (`sub`, `role`, `aud` driver, `iss`, `exp`) plus `sid`, its session. */
export function signAccessToken(driverId: string, sessionId: string, settings: AccessTokenSettings): string {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt({ sub: driverId, role: 'driver', sid: sessionId, aud: 'driver', iss: settings.issuer, iat, exp: iat + settings.ttlSeconds }, settings.secret);
}
