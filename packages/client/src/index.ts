import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { resilientFetch, type RetryPolicy } from './resilient-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths, webhooks, ErrorCode, WebhookEventType, WebhookPayload } from './schema';
export { ERROR_CODES, WEBHOOK_EVENT_TYPES } from './schema';
export { resilientFetch, type ResilientFetchOptions, type RetryPolicy } from './resilient-fetch';

/** A typed client of the partner API: `client.GET('/api/v1/verify/{code}', { params: { path: { code } } })`. */
export type PartnerClient = Client<paths>;

export interface PartnerClientOptions extends Omit<ClientOptions, 'fetch'> {
  /** The gateway's address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** An API key (`ck_…` or `mk_…`), sent as `Authorization: Bearer …`; leave out for driver-app or webhook calls that set their own header. */
  apiKey?: string;
  /** Each try's deadline in ms. Default 30000. */
  timeoutMs?: number;
  /** Retries of 429/503 (any request) and of network errors, timeouts, 502/504 (idempotent requests); `false` turns them off. */
  retry?: RetryPolicy | false;
  /** The `fetch` to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createPartnerClient({ apiKey, headers, timeoutMs, retry, fetch, ...options }: PartnerClientOptions): PartnerClient {
  return createClient<paths>({
    ...options,
    fetch: resilientFetch({ ...(retry === false ? { retries: 0 } : retry), timeoutMs, fetch }),
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}

/** Handy names for the bodies partners handle most. */
export type Verification = components['schemas']['Verification'];
export type Credits = components['schemas']['Credits'];
export type Ride = components['schemas']['Ride'];
export type Delivery = components['schemas']['Delivery'];
export type Estimate = components['schemas']['Estimate'];
export type EventPassProgram = components['schemas']['EventPassProgram'];
export type EventPass = components['schemas']['EventPass'];
/** Every error answer's body (RFC 9457 Problem Details keeping `error` and `code`). */
export type ProblemDetails = components['schemas']['Error'];
