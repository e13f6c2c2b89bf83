import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_TOKEN_PREFIXES, isWellFormedApiToken } from '@platform/api-keys';
import { bearerToken } from '@platform/service-kit/api-tokens';
import { sha256 } from '@platform/service-kit/hash';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import { answerJson } from './json-answer';
import { LocalBudget, type FlushCommand } from '@platform/service-kit/local-budget';
import { COUNT_SCRIPT } from '@platform/service-kit/minute-budget';
import { isKeylessPath } from './routes';

export interface RateLimitOptions {
  redis: Redis;
  prefix: string;
  perMinute: number;
  /** Requests one client address (IPv6: its /64) may make per minute, whatever key each carries. */
  perAddressPerMinute: number;
  logger: Logger;
}

const WINDOW_MS = 60000;
const WARN_EVERY_MS = 10000;
/** A JWT's shape (three base64url parts): drivers' and the dashboard's tokens. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Fixed one-minute windows in one atomic round trip: counts a hit on KEYS[1], the subject (the first hit of a window
 * sets its expiry; a key that lost its expiry gets it back), and on KEYS[3], every request of the client address; reads
 * the address's own counter KEYS[2] (keyless requests and refused keys; the same key when the subject is the address).
 * Returns {count, ttl, address count, address ttl, all-requests count, all-requests ttl}.
 */
const HIT_SCRIPT = `
local function hit(key)
  local count = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if count == 1 or ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  return count, ttl
end
local count, ttl = hit(KEYS[1])
local allCount, allTtl = hit(KEYS[3])
if KEYS[2] == KEYS[1] then return {count, ttl, count, ttl, allCount, allTtl} end
local addressCount = tonumber(redis.call('GET', KEYS[2]) or '0')
local addressTtl = redis.call('PTTL', KEYS[2])
return {count, ttl, addressCount, addressTtl, allCount, allTtl}
`;

type HitCommand = (key: string, addressKey: string, allKey: string, windowMs: number) => Promise<[number, number, number, number, number, number]>;



/** How often hits granted in-process reach Redis. */
const FLUSH_EVERY_MS = 50;

export interface RateLimitSubject {
  kind: 'key' | 'ip';
  /** A SHA-256 hex digest of the API key, or the client's address bucket (IPv6: its /64). */
  id: string;
}

export interface RateLimitedRequest {
  subject: RateLimitSubject;
  /** The client's address bucket, always counted for refused keys. */
  addressBucket: string;
  pathname: string;
}

export interface RateLimiter {
  /** Answers 429 itself, or calls `next` (also when Redis is unreachable: the limiter fails open). */
  check(req: RateLimitedRequest, res: ServerResponse, next: () => void): void;
  /** The service refused the request's key (401): the attempt counts against the client address too. */
  noteRefusedKey(req: RateLimitedRequest): void;
}

/**
 * Per-API-key budgets (per client address for requests without a plausible key, and always per address for payment
 * webhooks), shared by every gateway process through Redis. Only a hash of the key is used. Every request also counts
 * against its client address's budget across keys (`perAddressPerMinute`, whatever key or none it carries), checked in
 * the same round trip; over it, 429 with that budget's `RateLimit-*` headers. Junk keys do not get a
 * budget of their own: a token that is not a well-formed `ck_`/`mk_` API token (checksum checked) or a JWT spends the
 * address's budget; every request the service answers 401 counts against the address; a key used from an address
 * whose budget is spent is refused. If Redis does not answer, requests pass and a warning is logged at most every 10 s.
 * Far from the limit, hits are granted in-process and reach Redis in batches every 50 ms (LocalBudget); within 10%
 * of the limit every hit is one atomic Redis round trip, so refusals are exact across processes.
 */
export function rateLimit({ redis, prefix, perMinute, perAddressPerMinute, logger }: RateLimitOptions): RateLimiter {
  const commands = redis as unknown as { gatewayRateLimitHit3?: HitCommand; gatewayRateLimitFlush?: FlushCommand };
  if (!commands.gatewayRateLimitHit3) redis.defineCommand('gatewayRateLimitHit3', { numberOfKeys: 3, lua: HIT_SCRIPT });
  if (!commands.gatewayRateLimitFlush) redis.defineCommand('gatewayRateLimitFlush', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const hit = commands.gatewayRateLimitHit3!.bind(redis);
  const flush = commands.gatewayRateLimitFlush!.bind(redis);
  const keyOf = (subject: RateLimitSubject) => `${prefix}:ratelimit:${subject.kind}:${subject.id}`;
  const addressKeyOf = (bucket: string) => `${prefix}:ratelimit:ip:${bucket}`;
  const allKeyOf = (bucket: string) => `${prefix}:ratelimit:address:${bucket}`;
  let lastWarning = 0;
  const warn = (error: unknown) => {
    const now = Date.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    logger.warn({ err: (error as Error).message }, 'rate limiter unavailable (Redis); letting requests through');
  };
  // In-process grants only while a counter has more than 10% of the limit (and at least 10 hits) left: see LocalBudget.
  const local = new LocalBudget(perMinute, Math.max(10, Math.ceil(perMinute / 10)), WINDOW_MS, FLUSH_EVERY_MS, flush, warn);
  const localAll = new LocalBudget(perAddressPerMinute, Math.max(10, Math.ceil(perAddressPerMinute / 10)), WINDOW_MS, FLUSH_EVERY_MS, flush, warn);
  const limitHeader = String(perMinute);
  const setHeaders = (res: ServerResponse, count: number, resetSeconds: number) => {
    res.setHeader('RateLimit-Limit', limitHeader);
    res.setHeader('RateLimit-Remaining', String(Math.max(0, perMinute - count)));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
  };
  const resetOf = (ttlMs: number) => Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : WINDOW_MS) / 1000));

  return {
    check(req, res, next) {
      const key = keyOf(req.subject);
      const allKey = allKeyOf(req.addressBucket);
      const now = Date.now();
      // Both the subject's and the address's counters far from their limits: granted here, no round trip.
      const granted = local.take(key, now);
      if (granted) {
        if (localAll.take(allKey, now)) {
          setHeaders(res, granted.shared + granted.pending + granted.sending, Math.max(1, Math.ceil((granted.windowEnd - now) / 1000)));
          return next();
        }
        local.giveBack(key); // the round trip below counts it
      }
      const addressKey = addressKeyOf(req.addressBucket);
      hit(key, addressKey, allKey, WINDOW_MS).then(
        ([count, ttlMs, addressCount, addressTtlMs, allCount, allTtlMs]) => {
          const resetSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
          setHeaders(res, count, resetSeconds);
          localAll.learn(allKey, allCount, allTtlMs, now);
          if (count > perMinute) return rejectOverLimit(res, resetSeconds);
          if (allCount > perAddressPerMinute) {
            const allReset = resetOf(allTtlMs);
            res.setHeader('RateLimit-Limit', String(perAddressPerMinute));
            res.setHeader('RateLimit-Remaining', '0');
            res.setHeader('RateLimit-Reset', String(allReset));
            return rejectOverLimit(res, allReset);
          }
          if (addressCount >= perMinute && req.subject.kind === 'key') {
            local.forget(key);
            const addressReset = resetOf(addressTtlMs);
            res.setHeader('RateLimit-Remaining', '0');
            res.setHeader('RateLimit-Reset', String(addressReset));
            return rejectOverLimit(res, addressReset);
          }
          local.learn(key, count, ttlMs, now);
          next();
        },
        (error: unknown) => {
          warn(error);
          next();
        },
      );
    },
    noteRefusedKey(req) {
      if (req.subject.kind !== 'key') return; // an address's own requests were already counted there
      local.forget(keyOf(req.subject)); // a refused key's next request checks its address in Redis
      flush(addressKeyOf(req.addressBucket), 1, WINDOW_MS).catch(warn); // counted across keys already, in check
    },
  };
}

/** Whether a JWT-shaped token carries our signature (and issuer, and has not expired): made-up JWTs are junk. */
export type JwtCheck = (token: string) => boolean;

/**
 * Whose budget a request spends: its API key's (Bearer or X-API-KEY) when plausible, else its address's; the keyless
 * routes (payment webhooks, public pages, sign-in and refresh of the dashboard and the driver app) always by address.
 */
export function rateLimitSubject(req: IncomingMessage, pathname: string, addressBucket: string, isSignedJwt: JwtCheck): RateLimitSubject {
  if (!isKeylessPath(pathname)) {
    const token = bearerToken(req.headers.authorization) ?? singleHeader(req.headers['x-api-key']);
    if (token && isPlausibleToken(token, isSignedJwt)) return { kind: 'key', id: sha256(token) };
  }
  return { kind: 'ip', id: addressBucket };
}

const CONNECTION_SUBJECT = Symbol('rate-limit subject of the connection');

type RememberingSocket = IncomingMessage['socket'] & { [CONNECTION_SUBJECT]?: { token: string; subject: RateLimitSubject } };

/**
 * `rateLimitSubject`, remembered per connection for an API key: a keep-alive connection usually carries one key, so
 * its checksum and hash are worked out once, not on every request. A request with another token is worked out anew
 * (and remembered in its place); a JWT never is remembered, as its verdict changes when it expires.
 */
export function connectionRateLimitSubject(req: IncomingMessage, pathname: string, addressBucket: string, isSignedJwt: JwtCheck): RateLimitSubject {
  if (isKeylessPath(pathname)) return { kind: 'ip', id: addressBucket };
  const token = bearerToken(req.headers.authorization) ?? singleHeader(req.headers['x-api-key']);
  if (!token) return { kind: 'ip', id: addressBucket };
  const socket = req.socket as RememberingSocket;
  const remembered = socket[CONNECTION_SUBJECT];
  if (remembered?.token === token) return remembered.subject;
  const subject: RateLimitSubject = isPlausibleToken(token, isSignedJwt) ? { kind: 'key', id: sha256(token) } : { kind: 'ip', id: addressBucket };
  if (subject.kind === 'key' && !token.includes('.')) socket[CONNECTION_SUBJECT] = { token, subject };
  return subject;
}

/**
 * A well-formed API token (its checksum matches) or a JWT our secret signed: anything else cannot be a valid key, so
 * a JWT-shaped made-up token spends its address's budget even on a route that never answers it 401.
 */
export function isPlausibleToken(token: string, isSignedJwt: JwtCheck): boolean {
  if (API_TOKEN_PREFIXES.some((prefix) => isWellFormedApiToken(token, prefix))) return true;
  return token.length <= 4096 && JWT_SHAPE.test(token) && isSignedJwt(token);
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

function rejectOverLimit(res: ServerResponse, retryAfterSeconds: number): void {
  answerJson(res, 429, { error: 'Rate limit exceeded', code: 'rate_limited' }, { 'Retry-After': String(retryAfterSeconds) });
}
