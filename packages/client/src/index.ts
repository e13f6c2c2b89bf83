import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths, webhooks } from './schema';

/** A typed client of the partner API: `client.GET('/api/v1/verify/{code}', { params: { path: { code } } })`. */
export type PartnerClient = Client<paths>;

export interface PartnerClientOptions extends ClientOptions {
  /** The gateway's address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** An API key (`ck_…` or `mk_…`), sent as `Authorization: Bearer …`; leave out for driver-app or webhook calls that set their own header. */
  apiKey?: string;
}

export function createPartnerClient({ apiKey, headers, ...options }: PartnerClientOptions): PartnerClient {
  return createClient<paths>({
    ...options,
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
