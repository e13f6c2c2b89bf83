import { randomUUID } from 'node:crypto';

export interface RetryPolicy {
  /** Further tries after the first; 0 turns retrying off. Default 2. */
  retries?: number;
  /** The first backoff in ms, doubled per try, with full jitter. Default 300. */
  baseDelayMs?: number;
  /** No wait (backoff or `Retry-After`) is longer than this; a longer `Retry-After` is not retried. Default 10000. */
  maxDelayMs?: number;
}

export interface ResilientFetchOptions extends RetryPolicy {
  /** Each try's deadline in ms (`AbortSignal.timeout`); a try that takes longer fails with a `TimeoutError`. Default 30000. */
  timeoutMs?: number;
  /** Where the requests go; the global `fetch` by default (tests and proxies pass their own). */
  fetch?: (request: Request) => Promise<Response>;
}

/** Methods a repeat cannot change the outcome of (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Creating a ride or a delivery gets an `Idempotency-Key` unless the caller gave one, so a retried POST books once. */
const AUTO_IDEMPOTENCY_KEY = /^\/api\/v1\/(rides|deliveries)\/?$/;

/** 429 and 503 say the request was not acted on; 502 and 504 say nothing reached or came back from the service. */
const ALWAYS_RETRIED = new Set([429, 503]);
const RETRIED_WHEN_REPEATABLE = new Set([502, 504]);

/**
 * A `fetch` for openapi-fetch that adds a per-try timeout, an automatic `Idempotency-Key` on POST /api/v1/rides and
 * /api/v1/deliveries, and retries: 429 and 503 for any request, honouring `Retry-After`; network errors, timeouts, 502
 * and 504 only for requests a repeat cannot double (idempotent methods, or a POST carrying an `Idempotency-Key`).
 */
export function resilientFetch(options: ResilientFetchOptions = {}): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const retries = options.retries ?? 2;
  const baseDelayMs = options.baseDelayMs ?? 300;
  const maxDelayMs = options.maxDelayMs ?? 10000;
  const timeoutMs = options.timeoutMs ?? 30000;

  return async (original) => {
    const request = withIdempotencyKey(original);
    const repeatable = IDEMPOTENT.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 0; ; attempt++) {
      const signal = request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await send(new Request(last ? request : request.clone(), { signal }));
      } catch (error) {
        if (last || !repeatable || request.signal?.aborted) throw error;
        await sleep(backoff(attempt, baseDelayMs, maxDelayMs));
        continue;
      }
      const retried = ALWAYS_RETRIED.has(response.status) || (repeatable && RETRIED_WHEN_REPEATABLE.has(response.status));
      if (last || !retried) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt, baseDelayMs, maxDelayMs);
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

function withIdempotencyKey(request: Request): Request {
  if (request.method !== 'POST' || request.headers.has('idempotency-key')) return request;
  if (!AUTO_IDEMPOTENCY_KEY.test(new URL(request.url).pathname)) return request;
  const headers = new Headers(request.headers);
  headers.set('Idempotency-Key', randomUUID());
  return new Request(request, { headers });
}

/** Capped exponential backoff with full jitter: a random wait up to base × 2^attempt, never over the cap. */
export function backoff(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.round(Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt));
}

/** `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
