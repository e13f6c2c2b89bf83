const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The default wait after each failed attempt (Svix's schedule, extended to about three days): the first attempt goes
 * at once, then after 5 s, 5 min, 30 min, 2 h, 5 h and seven times 10 h. The last (13th) attempt is about 3 days 5 h
 * 35 min after the first, so a receiver down over a long weekend still gets every event.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** With WEBHOOK_BACKOFF_MS set, no single wait exceeds this (the doubling would otherwise run away). */
const MAX_EXPONENTIAL_DELAY_MS = 6 * HOUR;

export interface RetryPolicy {
  /** HTTP attempts per message, the first included. */
  maxAttempts: number;
  /** How long to wait after attempt `attempt` (1-based) failed, jitter included. */
  delayAfter(attempt: number, random?: () => number): number;
}

export interface RetryOverrides {
  /** WEBHOOK_MAX_ATTEMPTS: unset, the schedule's attempts (13). */
  WEBHOOK_MAX_ATTEMPTS?: number;
  /** WEBHOOK_BACKOFF_MS: set, waits double from it instead of following the schedule. */
  WEBHOOK_BACKOFF_MS?: number;
}

/** The schedule above unless the overrides say otherwise; ±20 % jitter either way, so a burst's retries spread out. */
export function retryPolicyFrom(overrides: RetryOverrides): RetryPolicy {
  const backoffMs = overrides.WEBHOOK_BACKOFF_MS;
  return {
    maxAttempts: overrides.WEBHOOK_MAX_ATTEMPTS ?? DEFAULT_RETRY_SCHEDULE_MS.length + 1,
    delayAfter(attempt, random = Math.random) {
      if (backoffMs !== undefined) return exponentialDelayMs(backoffMs, attempt, random);
      // Past the end of the table (WEBHOOK_MAX_ATTEMPTS above 13) the last step repeats.
      const step = DEFAULT_RETRY_SCHEDULE_MS[Math.min(attempt, DEFAULT_RETRY_SCHEDULE_MS.length) - 1]!;
      return withJitter(step, random);
    },
  };
}

/** WEBHOOK_BACKOFF_MS × 2^(attempt-1), ±20 % jitter, at most 6 h. */
export function exponentialDelayMs(backoffMs: number, attempt: number, random = Math.random): number {
  const exponential = backoffMs * 2 ** Math.min(attempt - 1, 30);
  return Math.min(MAX_EXPONENTIAL_DELAY_MS, withJitter(exponential, random));
}

function withJitter(ms: number, random: () => number): number {
  return Math.round(ms * (0.8 + 0.4 * random()));
}
