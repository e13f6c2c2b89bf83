import { z } from 'zod';
import { constantTimeEqual } from '@platform/service-kit/api-tokens';
import type { CertificateConfig } from '../../config';
import { callGatewayApi, checkoutUnavailable, header, hostedPage, MalformedEvent, NOT_FOUND_AT_GATEWAY, postGatewayApi, unexpectedAnswer, type PaymentGateway } from './payment-gateway';

const eventSchema = z.object({ event: z.string(), data: z.unknown() });
const chargeSchema = z.object({ id: z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]), tx_ref: z.string().min(1).max(200) });
const initializeSchema = z.object({ status: z.literal('success'), data: z.object({ link: z.string() }) });
const verifySchema = z.object({
  status: z.literal('success'),
  data: z.object({ status: z.string(), tx_ref: z.string(), amount: z.number().nonnegative(), currency: z.string() }),
});

/** Major units (possibly with decimals) to minor units without floating-point drift: 5000.1 → 500010. */
export function majorToMinor(amount: number): number {
  return Math.round(Number(amount.toFixed(2)) * 100);
}

/** Gateway B: a shared secret hash in a header (without one its webhooks are inert); amounts in major units; verify by transaction id. */
export function createGatewayB(config: CertificateConfig): PaymentGateway {
  const displayName = config.GATEWAY_B_DISPLAY_NAME;
  return {
    id: 'gateway-b',
    displayName,
    isConfigured: () => Boolean(config.GATEWAY_B_SECRET_KEY && config.GATEWAY_B_BASE_URL),
    /** POST /payments (amount in major units) → `data.link`, the hosted payment page. */
    async initialize(checkout) {
      const url = `${config.GATEWAY_B_BASE_URL!.replace(/\/$/, '')}/payments`;
      const body = { tx_ref: checkout.reference, amount: checkout.amountMinor / 100, currency: checkout.currency, redirect_url: checkout.callbackUrl, customer: { email: checkout.email } };
      const parsed = initializeSchema.safeParse(await postGatewayApi(url, config.GATEWAY_B_SECRET_KEY!, body, config.PAYMENT_VERIFY_TIMEOUT_MS, displayName));
      if (!parsed.success) throw checkoutUnavailable(displayName, 'an answer of an unexpected shape');
      return hostedPage(parsed.data.data.link, displayName);
    },
    authenticate(_rawBody, headers) {
      const expected = config.GATEWAY_B_SECRET_HASH;
      if (!expected) return 'unauthenticated'; // unset: nothing proves the sender, so such a call never changes a payment
      const given = header(headers, config.GATEWAY_B_HASH_HEADER);
      return given !== undefined && constantTimeEqual(given, expected) ? 'authenticated' : 'rejected';
    },
    parseEvent(body) {
      const parsed = eventSchema.safeParse(body);
      if (!parsed.success) throw new MalformedEvent('expected {"event", "data"}');
      if (parsed.data.event !== 'charge.completed') return { kind: 'ignored', event: parsed.data.event };
      const charge = chargeSchema.safeParse(parsed.data.data);
      if (!charge.success) throw new MalformedEvent('charge.completed needs data.id and data.tx_ref');
      return { kind: 'charge', event: parsed.data.event, reference: charge.data.tx_ref, transactionId: String(charge.data.id) };
    },
    async verify(event) {
      const url = `${config.GATEWAY_B_BASE_URL!.replace(/\/$/, '')}/transactions/${encodeURIComponent(event.transactionId)}/verify`;
      const answer = await callGatewayApi(url, config.GATEWAY_B_SECRET_KEY!, config.PAYMENT_VERIFY_TIMEOUT_MS);
      if (answer.kind === 'not_found') return { status: 'not_successful', reason: NOT_FOUND_AT_GATEWAY };
      const parsed = verifySchema.safeParse(answer.body);
      if (!parsed.success) throw unexpectedAnswer();
      const { data } = parsed.data;
      if (data.status !== 'successful') return { status: 'not_successful', reason: `transaction status is ${data.status}` };
      return { status: 'successful', reference: data.tx_ref, amountMinor: majorToMinor(data.amount), currency: data.currency, transactionId: event.transactionId };
    },
  };
}
