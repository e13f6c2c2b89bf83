import { createHmac } from 'node:crypto';
import { sendJson, startFakeServer } from '@platform/test-kit';

export const GATEWAY_A_SECRET = 'sk_test_gateway_a_secret';
export const GATEWAY_B_SECRET = 'FLWSECK_TEST-gateway-b-secret';
export const GATEWAY_B_HASH = 'my-webhook-secret-hash';

export interface Charge {
  reference: string;
  amountMinor: number;
  currency: string;
  status: string;
}

/**
 * Both gateways' verify-transaction APIs as one real HTTP server on loopback. `charges` says what each reference
 * looks like to the gateway; `mode` can make it fail or hang; `answer`, when set, is what every verify call gets.
 */
export async function startFakeGateways() {
  const charges = new Map<string, Charge>();
  const idToReference = new Map<string, string>();
  const state = {
    mode: 'normal' as 'normal' | 'down' | 'hang',
    answer: undefined as { status: number; contentType: string; body: string } | undefined,
    /** How the initialise APIs answer: a hosted page, an error status, or a body without a page address. */
    initialize: 'normal' as 'normal' | 'down' | 'no_url',
  };
  /** Every initialise call's JSON body, by gateway. */
  const initializations: { gateway: 'gateway-a' | 'gateway-b'; body: Record<string, unknown> }[] = [];
  const server = await startFakeServer((req, res) => {
    // The initialise APIs: a hosted payment page on this server, which the test may open.
    const initialize = req.method === 'POST' && (req.url === '/transaction/initialize' ? 'gateway-a' : req.url === '/payments' ? 'gateway-b' : undefined);
    if (initialize) {
      const secret = initialize === 'gateway-a' ? GATEWAY_A_SECRET : GATEWAY_B_SECRET;
      if (req.headers.authorization !== `Bearer ${secret}`) return sendJson(res, 401, { status: false });
      const body = JSON.parse(req.body.toString('utf8') || '{}') as Record<string, unknown>;
      initializations.push({ gateway: initialize, body });
      if (state.initialize === 'down') return sendJson(res, 503, { message: 'down' });
      const reference = String(body.reference ?? body.tx_ref);
      const page = state.initialize === 'no_url' ? 'javascript:alert(1)' : `${server.url}/pay/${encodeURIComponent(reference)}`;
      return initialize === 'gateway-a'
        ? sendJson(res, 200, { status: true, message: 'Authorization URL created', data: { authorization_url: page, access_code: 'ac_fake', reference } })
        : sendJson(res, 200, { status: 'success', message: 'Hosted Link', data: { link: page } });
    }
    if (state.mode === 'down') return sendJson(res, 502, { message: 'bad gateway' });
    if (state.mode === 'hang') return; // never answers
    if (state.answer) return void res.writeHead(state.answer.status, { 'Content-Type': state.answer.contentType }).end(state.answer.body);
    const a = /^\/transaction\/verify\/([^/]+)$/.exec(req.url);
    if (a) {
      if (req.headers.authorization !== `Bearer ${GATEWAY_A_SECRET}`) return sendJson(res, 401, { status: false });
      const charge = charges.get(decodeURIComponent(a[1]!));
      if (!charge) return sendJson(res, 404, { status: false, message: 'Transaction reference not found' });
      return sendJson(res, 200, { status: true, data: { id: 4099260516, status: charge.status, reference: charge.reference, amount: charge.amountMinor, currency: charge.currency } });
    }
    const b = /^\/transactions\/([^/]+)\/verify$/.exec(req.url);
    if (b) {
      if (req.headers.authorization !== `Bearer ${GATEWAY_B_SECRET}`) return sendJson(res, 401, { status: 'error' });
      const reference = idToReference.get(b[1]!);
      const charge = reference ? charges.get(reference) : undefined;
      if (!charge) return sendJson(res, 400, { status: 'error', message: 'No transaction was found for this id' });
      return sendJson(res, 200, { status: 'success', data: { id: Number(b[1]), status: charge.status, tx_ref: charge.reference, amount: charge.amountMinor / 100, currency: charge.currency } });
    }
    sendJson(res, 404, {});
  });
  return {
    ...server,
    state,
    charge(charge: Charge, transactionId?: string) {
      charges.set(charge.reference, charge);
      if (transactionId) idToReference.set(transactionId, charge.reference);
    },
    initializations,
    /** Calls of the verify APIs only (initialise calls are in `initializations`). */
    verifyCalls: () => server.requests.filter((recorded) => recorded.method !== 'POST').length,
  };
}

export function gatewayAWebhook(reference: string, amount = 500000, event = 'charge.success') {
  return JSON.stringify({ event, data: { id: 4099260516, reference, amount, currency: 'NGN', status: 'success', paid_at: '2026-11-26T10:00:00.000Z' } });
}

export function signA(body: string | Buffer): string {
  return createHmac('sha512', GATEWAY_A_SECRET).update(body).digest('hex');
}

export function gatewayBWebhook(reference: string, transactionId: number, amount: number) {
  return JSON.stringify({ event: 'charge.completed', data: { id: transactionId, tx_ref: reference, flw_ref: 'FLW-MOCK-1', amount, currency: 'NGN', status: 'successful' } });
}

/** The service's settings for both gateways, pointed at the fake verify APIs. */
export function paymentGatewayEnv(fakeUrl: string, verifyTimeoutMs: number): Record<string, string> {
  return {
    GATEWAY_A_SECRET_KEY: GATEWAY_A_SECRET,
    GATEWAY_A_BASE_URL: fakeUrl,
    GATEWAY_B_SECRET_KEY: GATEWAY_B_SECRET,
    GATEWAY_B_BASE_URL: fakeUrl,
    GATEWAY_B_SECRET_HASH: GATEWAY_B_HASH,
    PAYMENT_VERIFY_TIMEOUT_MS: String(verifyTimeoutMs),
  };
}
