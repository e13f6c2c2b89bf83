import { ApiError } from '@platform/service-kit/errors';
import type { Logger } from '@platform/service-kit/logger';
import { minuteBudget, type MinuteBudget } from '@platform/service-kit/minute-budget';
import type { Redis } from '@platform/service-kit/redis';

const WARN_EVERY_MS = 10000;

/** 429 `rate_limited` with `Retry-After`: the organization's keys together have spent this minute's requests. */
export class OrganizationRateLimitError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', "Rate limit exceeded: this organization's API keys together made too many requests this minute", {}, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export interface OrganizationBudgetOptions {
  /** `RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE`: requests all keys of one organization may make per minute, live and test together. */
  perMinute: number;
  /** The service's name, part of the counters' keys (`<REDIS_PREFIX>:<service>:ratelimit:org:<organization>`). */
  service: string;
  /** Shares the count between the service's processes; without it each process counts alone. */
  redis?: Redis;
  prefix: string;
  /** Told when Redis does not answer (at most every 10 s). */
  logger?: Logger;
}

/**
 * The per-organization budget the API-key guard spends once a key is resolved: one fixed minute per organization,
 * counted in Redis under the service's prefix (batched in-process far from the limit; see `minuteBudget`). If Redis
 * does not answer, requests pass and a warning is logged at most every 10 s.
 */
export function organizationBudget({ perMinute, service, redis, prefix, logger }: OrganizationBudgetOptions): MinuteBudget {
  let lastWarning = 0;
  const onError = (error: unknown) => {
    const now = Date.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    logger?.warn({ err: (error as Error).message }, 'organization rate limit unavailable (Redis); letting requests through');
  };
  return minuteBudget({ perMinute, prefix: `${prefix}:${service}:ratelimit:org`, redis, onError });
}
