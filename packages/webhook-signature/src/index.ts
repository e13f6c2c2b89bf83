import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * Signing and verification of outgoing webhooks. Two signatures travel with every delivery:
 *
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 of the exact body bytes, keyed with the secret string (UTF-8).
 * - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 *   `webhook-signature: v1,<base64>`, an HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64-decoded
 *   part of the secret after `whsec_`. The timestamp is signed, so a receiver can refuse replays.
 *
 * Zero dependencies beyond node:crypto, so partners can copy this file as it is.
 */

export type RawBody = string | Uint8Array;

export interface SignWebhookInput {
  /**
   * The endpoint secret exactly as returned at registration (`whsec_…`), or several while a rotation overlaps: the
   * first (the newest) signs `X-Service-Signature`, and each one adds a `v1,` entry to `webhook-signature`.
   */
  secret: string | readonly string[];
  /** The message id (the event id, `evt_…`): the same on every retry of one event. */
  id: string;
  /** Unix seconds, or a Date. */
  timestamp: number | Date;
  /** The exact bytes sent as the request body. */
  body: RawBody;
}

export type WebhookSignatureHeaders = {
  'X-Service-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * Both signature headers for one delivery. With several secrets, `webhook-signature` carries one space-separated
 * `v1,<base64>` per secret (Standard Webhooks receivers accept a message when any of them matches), so a receiver
 * still holding the old secret and one already holding the new one both verify.
 */
export function signWebhook({ secret, id, timestamp, body }: SignWebhookInput): WebhookSignatureHeaders {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0) throw new Error('at least one webhook secret is needed to sign');
  const seconds = toUnixSeconds(timestamp);
  return {
    'X-Service-Signature': `sha256=${serviceSignatureHex(body, secrets[0]!)}`,
    'webhook-id': id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((s) => `v1,${standardSignature(s, id, seconds, body)}`).join(' '),
  };
}

/** Lowercase hex HMAC-SHA256 of the body, keyed with the secret string as UTF-8. */
export function serviceSignatureHex(body: RawBody, secret: string): string {
  return createHmac('sha256', cachedKey('utf8', secret, () => Buffer.from(secret, 'utf8'))).update(toBytes(body)).digest('hex');
}

/** Base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the decoded secret (the Standard Webhooks `v1` scheme). */
export function standardSignature(secret: string, id: string, timestamp: number, body: RawBody): string {
  return createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(toBytes(body))
    .digest('base64');
}

/**
 * Checks `X-Service-Signature` (`sha256=<hex>`) against the raw body, in constant time.
 * Pass the body exactly as received, before any JSON parsing.
 */
export function verifyServiceSignature(rawBody: RawBody, header: string | string[] | undefined | null, secret: string): boolean {
  const value = singleHeader(header);
  if (!value) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(value.trim());
  if (!match) return false;
  const expected = Buffer.from(serviceSignatureHex(rawBody, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

export type HeaderBag =
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null };

export interface VerifyStandardOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** The current time, for tests (default: the clock). */
  now?: number | Date;
}

/**
 * Checks the Standard Webhooks headers: the timestamp is within the tolerance and at least one of the space-separated
 * `v1,<base64>` signatures matches, compared in constant time. Accepts Node's `req.headers` or a fetch `Headers`.
 */
export function verifyStandardWebhook(rawBody: RawBody, headers: HeaderBag, secret: string, options: VerifyStandardOptions = {}): boolean {
  const id = readHeader(headers, 'webhook-id');
  const timestampText = readHeader(headers, 'webhook-timestamp');
  const signatures = readHeader(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures || !/^\d{1,15}$/.test(timestampText.trim())) return false;
  const timestamp = Number(timestampText.trim());
  const now = options.now === undefined ? Date.now() / 1000 : toUnixSeconds(options.now, false);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;

  let key: KeyObject;
  try {
    key = standardKey(secret);
  } catch {
    return false;
  }
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(toBytes(rawBody)).digest();
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // Check every entry, so the time taken does not say which one matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

function standardKey(secret: string): KeyObject {
  return cachedKey('standard', secret, () => {
    const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
    const key = Buffer.from(encoded, 'base64');
    if (key.length === 0) throw new Error('webhook secret is empty');
    return key;
  });
}

/** How many prepared keys are kept; past it the cache starts again (a sender signs for a bounded set of endpoints). */
const KEY_CACHE_LIMIT = 1024;
const preparedKeys = new Map<string, KeyObject>();

/**
 * The secret as a prepared HMAC key, made once per secret: on Node 22 and later `createHmac` with a raw Buffer
 * prepares the key anew on every call, several times the cost of signing a small body; a `KeyObject` skips that.
 */
function cachedKey(kind: 'utf8' | 'standard', secret: string, bytes: () => Buffer): KeyObject {
  const id = `${kind}:${secret}`;
  let key = preparedKeys.get(id);
  if (!key) {
    if (preparedKeys.size >= KEY_CACHE_LIMIT) preparedKeys.clear();
    key = createSecretKey(bytes());
    preparedKeys.set(id, key);
  }
  return key;
}

function toBytes(body: RawBody): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function toUnixSeconds(value: number | Date, whole = true): number {
  const seconds = value instanceof Date ? value.getTime() / 1000 : value;
  return whole ? Math.floor(seconds) : seconds;
}

function singleHeader(value: string | string[] | undefined | null): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
  return value ?? undefined;
}

function readHeader(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : singleHeader(bag[key]);
}
