import type { IncomingMessage } from 'node:http';
import { ApiError } from '@platform/service-kit/errors';
import { addressBucket, clientAddress } from '@platform/service-kit/client-address';
import type { Redis } from '@platform/service-kit/redis';

export interface SignInThrottleSettings {
  /** Failed sign-ins one address may make per window before it is refused with 429. */
  maxFailures: number;
  windowSeconds: number;
  /** Trusted proxies in front of the service (the gateway: 1); the client is the `X-Forwarded-For` entry that many hops back. */
  trustProxyHops: number;
}

/** 429 `rate_limited` with `Retry-After`: the address has spent its failed sign-ins for this window. */
export class TooManySignInsError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many failed sign-in attempts from this address; try again later', {}, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * Slows down guessing of activation codes: failed sign-ins are counted per client address (IPv6: its /64) in a fixed
 * window in Redis; once `maxFailures` are spent, every sign-in from that address is refused until the window ends.
 * Successful sign-ins cost nothing, so a depot of drivers behind one address is not locked out by its own drivers.
 */
export function createSignInThrottle(redis: Redis, prefix: string, settings: SignInThrottleSettings) {
  const keyOf = (req: IncomingMessage) => `${prefix}:driver-signin:failures:${addressBucket(clientAddress(req, settings.trustProxyHops))}`;
  return {
    /** Throws 429 when the address has no failed attempts left in this window. */
    async check(req: IncomingMessage): Promise<void> {
      const key = keyOf(req);
      const [[, count], [, ttl]] = (await redis.multi().get(key).ttl(key).exec()) as [[null, string | null], [null, number]];
      if (Number(count ?? 0) >= settings.maxFailures) throw new TooManySignInsError(ttl > 0 ? ttl : settings.windowSeconds);
    },
    /** Counts one failed attempt; the window starts at the address's first failure. */
    async recordFailure(req: IncomingMessage): Promise<void> {
      const key = keyOf(req);
      await redis.multi().set(key, '0', 'EX', settings.windowSeconds, 'NX').incr(key).exec();
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
