import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { bearerToken } from '@platform/service-kit/auth';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';

export interface RateLimitOptions {
  redis: Redis;
  prefix: string;
  perMinute: number;
  logger: Logger;
}

const WINDOW_MS = 60000;
const WARN_EVERY_MS = 10000;

/**
 * A fixed one-minute window per subject in one atomic round trip: the first hit of a window creates the counter with
 * its expiry; every hit returns the count and the milliseconds left. Keys that somehow lost their expiry get it back.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type HitCommand = (key: string, windowMs: number) => Promise<[number, number]>;

/**
 * Per-API-key budgets (per client IP for requests without a key, and always per IP for payment webhooks), shared by
 * every gateway process through Redis. Only a hash of the key is used. If Redis does not answer, requests pass
 * (fail open) and a warning is logged at most every 10 s.
 */
export function rateLimit({ redis, prefix, perMinute, logger }: RateLimitOptions): RequestHandler {
  if (!(redis as unknown as { gatewayRateLimitHit?: HitCommand }).gatewayRateLimitHit) {
    redis.defineCommand('gatewayRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }
  const hit = (redis as unknown as { gatewayRateLimitHit: HitCommand }).gatewayRateLimitHit.bind(redis);
  let lastWarning = 0;

  return (req, res, next) => {
    const subject = rateLimitSubject(req);
    if (subject.kind === 'key') res.locals.logFields = { ...res.locals.logFields, api_key_fingerprint: subject.id.slice(0, 12) };
    hit(`${prefix}:ratelimit:${subject.kind}:${subject.id}`, WINDOW_MS).then(
      ([count, ttlMs]) => {
        const remaining = Math.max(0, perMinute - count);
        const resetSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
        res.setHeader('RateLimit-Limit', String(perMinute));
        res.setHeader('RateLimit-Remaining', String(remaining));
        res.setHeader('RateLimit-Reset', String(resetSeconds));
        if (count > perMinute) return rejectOverLimit(res, resetSeconds);
        next();
      },
      (error: unknown) => {
        const now = Date.now();
        if (now - lastWarning >= WARN_EVERY_MS) {
          lastWarning = now;
          logger.warn({ err: (error as Error).message }, 'rate limiter unavailable (Redis); letting requests through');
        }
        next();
      },
    );
  };
}

export interface RateLimitSubject {
  kind: 'key' | 'ip';
  /** A SHA-256 hex digest of the API key, or the client's IP address. */
  id: string;
}

/** Whose budget a request spends: its API key's (Bearer or X-API-KEY), else its IP's; payment webhooks always by IP. */
export function rateLimitSubject(req: Request): RateLimitSubject {
  if (!req.path.startsWith('/webhooks/payments/')) {
    const token = bearerToken(req.headers.authorization) ?? singleHeader(req.headers['x-api-key']);
    if (token) return { kind: 'key', id: createHash('sha256').update(token).digest('hex') };
  }
  return { kind: 'ip', id: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

function rejectOverLimit(res: Response, retryAfterSeconds: number): void {
  const text = JSON.stringify({ error: 'Rate limit exceeded', code: 'rate_limited' });
  res.writeHead(429, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Retry-After': String(retryAfterSeconds),
  });
  res.end(text);
}
