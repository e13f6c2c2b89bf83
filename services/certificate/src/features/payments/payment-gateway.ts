import type { IncomingHttpHeaders } from 'node:http';

/** What a gateway's webhook says, once normalised. */
export type GatewayEvent =
  | { kind: 'ignored'; event: string }
  | { kind: 'charge'; event: string; reference: string; transactionId: string };

/** What the gateway's own verify-transaction API says about a charge. */
export type Verification =
  | { status: 'successful'; reference: string; amountMinor: number; currency: string; transactionId: string }
  | { status: 'not_successful'; reason: string };

/** Thrown when the verify API cannot be reached or answers 5xx: the webhook answers 503 so the gateway retries. */
export class VerificationUnavailable extends Error {}

/** Thrown for a body that is JSON but not a webhook of this gateway. */
export class MalformedEvent extends Error {}

/**
 * One payment gateway: how it authenticates its webhooks, what its events look like and how to confirm a charge
 * with its API. A third gateway is one new file implementing this.
 */
export interface PaymentGateway {
  id: 'gateway-a' | 'gateway-b';
  isConfigured(): boolean;
  authenticate(rawBody: Buffer, headers: IncomingHttpHeaders): boolean;
  parseEvent(body: unknown): GatewayEvent;
  verify(event: Extract<GatewayEvent, { kind: 'charge' }>): Promise<Verification>;
}

/** GET a gateway API with a bearer secret and a timeout; network errors, timeouts and 5xx are VerificationUnavailable. */
export async function callGatewayApi(url: string, secret: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${secret}`, Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (error) {
    throw new VerificationUnavailable(`verify API unreachable: ${(error as Error).name}`);
  }
  if (response.status >= 500) throw new VerificationUnavailable(`verify API answered ${response.status}`);
  const text = await response.text().catch(() => '');
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    if (response.status === 200) throw new VerificationUnavailable('verify API answered with a body that is not JSON');
    return { status: response.status, body: null };
  }
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
