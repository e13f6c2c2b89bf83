import { addressBucket } from '@platform/service-kit/client-address';
import { ApiError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';

export interface ThrottleSettings {
  windowSeconds: number;
  /** Wrong passwords an (email, address bucket) pair tries without waiting. */
  freeFailures: number;
  /** The first delay; each further failure doubles it. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  maxFailuresPerAddress: number;
  /** Sign-ups and password-reset requests per address bucket in `signUpWindowSeconds`. */
  maxSignUpsPerAddress: number;
  signUpWindowSeconds: number;
}

const tooMany = (retryAfter: number, message = 'Too many failed sign-in attempts; try again later') =>
  new ApiError(429, 'too_many_attempts', message, {}, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) });

/**
 * Sign-in throttling in Postgres (`sign_in_failures`), by address bucket (an IPv4 address, an IPv6 /64):
 * - per (email, bucket) pair, growing delays: after `freeFailures` wrong passwords each next try waits 1, 2, 4 … times `baseDelaySeconds`
 *   (at most `maxDelaySeconds`) after the last failure, the right password included; the pair is forgotten after a
 *   window without failures or at a successful sign-in. Another address is another pair, so a guesser slows down
 *   only itself and the owner still signs in from elsewhere;
 * - per bucket, a hard cap of failures in a fixed window, whatever the emails (password spraying);
 * - per bucket, a cap on sign-ups and password-reset requests (each hashes a password or sends a mail).
 */
export function createSignInThrottle(db: Knex, settings: ThrottleSettings) {
  const pairOf = (email: string, address: string) => `login:${email.toLowerCase()}|${addressBucket(address)}`;
  const bucketOf = (address: string) => `address:${addressBucket(address)}`;

  /** Counts one event of a fixed window; returns the count after it and the seconds left in the window. */
  async function count(subject: string, windowSeconds: number): Promise<{ failures: number; retryAfter: number }> {
    const { rows } = await db.raw(
      `insert into sign_in_failures (subject, failures, window_started_at, last_failed_at) values (?, 1, now(), now())
       on conflict (subject) do update set
         failures = case when sign_in_failures.window_started_at <= now() - make_interval(secs => ?) then 1 else sign_in_failures.failures + 1 end,
         window_started_at = case when sign_in_failures.window_started_at <= now() - make_interval(secs => ?) then now() else sign_in_failures.window_started_at end,
         last_failed_at = now()
       returning failures, extract(epoch from window_started_at + make_interval(secs => ?) - now()) as retry_after`,
      [subject, windowSeconds, windowSeconds, windowSeconds],
    );
    return { failures: Number(rows[0].failures), retryAfter: Number(rows[0].retry_after) };
  }

  return {
    /** Refuses (429 with `Retry-After`) while the pair must wait or the bucket has used up its failures. */
    async check(email: string, address: string): Promise<void> {
      const pair = await db('sign_in_failures')
        .where({ subject: pairOf(email, address) })
        .where('last_failed_at', '>', db.raw('now() - make_interval(secs => ?)', [settings.windowSeconds]))
        .first('failures', db.raw('extract(epoch from now() - last_failed_at) as since'));
      if (pair && Number(pair.failures) >= settings.freeFailures) {
        const delay = Math.min(settings.maxDelaySeconds, settings.baseDelaySeconds * 2 ** (Number(pair.failures) - settings.freeFailures));
        const wait = delay - Number(pair.since);
        if (wait > 0) throw tooMany(wait);
      }
      const bucket = await db('sign_in_failures')
        .where({ subject: bucketOf(address) })
        .where('failures', '>=', settings.maxFailuresPerAddress)
        .where('window_started_at', '>', db.raw('now() - make_interval(secs => ?)', [settings.windowSeconds]))
        .first(db.raw('extract(epoch from window_started_at + make_interval(secs => ?) - now()) as retry_after', [settings.windowSeconds]));
      if (bucket) throw tooMany(Number(bucket.retry_after));
    },
    async recordFailure(email: string, address: string): Promise<void> {
      await count(pairOf(email, address), settings.windowSeconds);
      await count(bucketOf(address), settings.windowSeconds);
    },
    /** A successful sign-in forgets its pair's failures (not the bucket's). */
    async clearPair(email: string, address: string): Promise<void> {
      await db('sign_in_failures').where({ subject: pairOf(email, address) }).delete();
    },
    /** Spends one of the bucket's sign-ups or password-reset requests; 429 once they are used up in this window. */
    async spendSignUp(address: string): Promise<void> {
      const { failures, retryAfter } = await count(`signup:${addressBucket(address)}`, settings.signUpWindowSeconds);
      if (failures > settings.maxSignUpsPerAddress) throw tooMany(retryAfter, 'Too many sign-ups or password resets from this address; try again later');
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
