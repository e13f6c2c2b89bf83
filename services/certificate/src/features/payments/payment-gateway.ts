import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '@platform/service-kit/errors';

/** What a gateway's webhook says, once normalised. */
export type GatewayEvent =
  | { kind: 'ignored'; event: string }
  | { kind: 'charge'; event: string; reference: string; transactionId: string };

/** What the gateway's own verify-transaction API says about a charge. */
export type Verification =
  | { status: 'successful'; reference: string; amountMinor: number; currency: string; transactionId: string }
  | { status: 'not_successful'; reason: string };

/**
 * The verify API gave no usable answer (unreachable, timed out, 401/403/408/429/5xx, not JSON, or an answer of no known
 * shape): the webhook answers 503 so the gateway retries, and the payment stays as it is. `credentialsRefused` marks a
 * 401/403, which means our own secret key is wrong: an operator has to act, so it is logged at error.
 */
export class VerificationUnavailable extends Error {
  constructor(
    message: string,
    readonly credentialsRefused = false,
  ) {
    super(message);
  }
}

/** Thrown for a body that is JSON but not a webhook of this gateway. */
export class MalformedEvent extends Error {}

/**
 * Who sent a webhook: `authenticated` (signature or hash matches), `rejected` (missing or wrong), or `unauthenticated`
 * (the gateway is set up without a shared secret, so nothing can be checked).
 */
export type WebhookTrust = 'authenticated' | 'rejected' | 'unauthenticated';

/**
 * One payment gateway: how it authenticates its webhooks, what its events look like and how to confirm a charge
 * with its API. A third gateway is one new file implementing this.
 */
export interface PaymentGateway {
  id: 'gateway-a' | 'gateway-b';
  /** What people see (GATEWAY_A_DISPLAY_NAME / GATEWAY_B_DISPLAY_NAME; "Gateway A" / "Gateway B" when unset). */
  displayName: string;
  isConfigured(): boolean;
  /** Opens the payment at the gateway (its initialise API) and answers the hosted payment page to send the payer to. */
  initialize(checkout: HostedCheckout): Promise<string>;
  authenticate(rawBody: Buffer, headers: IncomingHttpHeaders): WebhookTrust;
  parseEvent(body: unknown): GatewayEvent;
  verify(event: Extract<GatewayEvent, { kind: 'charge' }>): Promise<Verification>;
}

/** What the verify API said in a way we can act on: a 2xx JSON body, or 404 (the transaction does not exist). */
export type GatewayAnswer = { kind: 'found'; body: unknown } | { kind: 'not_found' };

/**
 * GET a gateway API with a bearer secret and a timeout. Only a 2xx JSON body or a 404 is an answer; everything else
 * (network error, timeout, any other status, a body that is not JSON) is VerificationUnavailable, so that a gateway
 * outage or our own misconfiguration never marks a paid upgrade failed.
 */
export async function callGatewayApi(url: string, secret: string, timeoutMs: number): Promise<GatewayAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${secret}`, Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (error) {
    throw new VerificationUnavailable(`verify API unreachable: ${(error as Error).name}`);
  }
  const text = await response.text().catch(() => '');
  if (response.status === 404) return { kind: 'not_found' };
  if (response.status === 401 || response.status === 403) {
    throw new VerificationUnavailable(`verify API refused our secret key (${response.status})`, true);
  }
  if (response.status < 200 || response.status > 299) throw new VerificationUnavailable(`verify API answered ${response.status}`);
  try {
    return { kind: 'found', body: JSON.parse(text) };
  } catch {
    throw new VerificationUnavailable(`verify API answered ${response.status} with a body that is not JSON`);
  }
}

export const NOT_FOUND_AT_GATEWAY = 'transaction not found at the gateway';

/** A 2xx body of no shape we know is not a "no": the gateway is asked again on its retry. */
export function unexpectedAnswer(): VerificationUnavailable {
  return new VerificationUnavailable('verify API answered with a body of an unexpected shape');
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** What a gateway's initialise API needs to open a hosted payment page that returns to `callbackUrl`. */
export interface HostedCheckout {
  reference: string;
  amountMinor: number;
  currency: string;
  email: string;
  callbackUrl: string;
}

/** The gateway could not open a payment page (unreachable, refused, or an answer without a usable URL): 502, nothing charged. */
export function checkoutUnavailable(gateway: string, why: string): ApiError {
  return new ApiError(502, 'payment_gateway_unavailable', `${gateway} could not open a payment page (${why}); try again or choose the other gateway`);
}

/** POSTs JSON to a gateway API with a bearer secret and a timeout; only a 2xx JSON body is an answer. */
export async function postGatewayApi(url: string, secret: string, body: unknown, timeoutMs: number, gateway: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    throw checkoutUnavailable(gateway, `unreachable: ${(error as Error).name}`);
  }
  const text = await response.text().catch(() => '');
  if (response.status < 200 || response.status > 299) throw checkoutUnavailable(gateway, `it answered ${response.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw checkoutUnavailable(gateway, 'its answer is not JSON');
  }
}

/** A hosted page address from a gateway's answer: http(s) only, else the answer is unusable. */
export function hostedPage(value: string, gateway: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw checkoutUnavailable(gateway, 'no payment page address in its answer');
  return url.toString();
}
