import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { constantTimeEqual } from '@platform/service-kit/api-tokens';
import type { CertificateConfig } from '../../config';
import { callGatewayApi, checkoutUnavailable, header, hostedPage, MalformedEvent, NOT_FOUND_AT_GATEWAY, postGatewayApi, unexpectedAnswer, type PaymentGateway } from './payment-gateway';

const eventSchema = z.object({ event: z.string(), data: z.unknown() });
const chargeSchema = z.object({ id: z.union([z.number(), z.string()]), reference: z.string().min(1).max(200) });
const initializeSchema = z.object({ status: z.literal(true), data: z.object({ authorization_url: z.string() }) });
const verifySchema = z.object({
  status: z.literal(true),
  data: z.object({ status: z.string(), reference: z.string(), amount: z.number().int(), currency: z.string(), id: z.union([z.number(), z.string()]).optional() }),
});

/** Gateway A: HMAC-SHA512 of the raw body in a header; amounts in minor units; verify by reference. */
export function createGatewayA(config: CertificateConfig): PaymentGateway {
  const secret = config.GATEWAY_A_SECRET_KEY;
  const displayName = config.GATEWAY_A_DISPLAY_NAME;
  return {
    id: 'gateway-a',
    displayName,
    isConfigured: () => Boolean(secret && config.GATEWAY_A_BASE_URL),
    /** POST /transaction/initialize (amount in minor units) → `data.authorization_url`, the hosted payment page. */
    async initialize(checkout) {
      const url = `${config.GATEWAY_A_BASE_URL!.replace(/\/$/, '')}/transaction/initialize`;
      const body = { reference: checkout.reference, amount: checkout.amountMinor, currency: checkout.currency, email: checkout.email, callback_url: checkout.callbackUrl };
      const parsed = initializeSchema.safeParse(await postGatewayApi(url, secret!, body, config.PAYMENT_VERIFY_TIMEOUT_MS, displayName));
      if (!parsed.success) throw checkoutUnavailable(displayName, 'an answer of an unexpected shape');
      return hostedPage(parsed.data.data.authorization_url, displayName);
    },
    authenticate(rawBody, headers) {
      const given = header(headers, config.GATEWAY_A_SIGNATURE_HEADER);
      if (!secret || !given) return 'rejected';
      const expected = createHmac('sha512', secret).update(rawBody).digest('hex');
      return constantTimeEqual(given.toLowerCase(), expected) ? 'authenticated' : 'rejected';
    },
    parseEvent(body) {
      const parsed = eventSchema.safeParse(body);
      if (!parsed.success) throw new MalformedEvent('expected {"event", "data"}');
      if (parsed.data.event !== 'charge.success') return { kind: 'ignored', event: parsed.data.event };
      const charge = chargeSchema.safeParse(parsed.data.data);
      if (!charge.success) throw new MalformedEvent('charge.success needs data.id and data.reference');
      return { kind: 'charge', event: parsed.data.event, reference: charge.data.reference, transactionId: String(charge.data.id) };
    },
    async verify(event) {
      const url = `${config.GATEWAY_A_BASE_URL!.replace(/\/$/, '')}/transaction/verify/${encodeURIComponent(event.reference)}`;
      const answer = await callGatewayApi(url, secret!, config.PAYMENT_VERIFY_TIMEOUT_MS);
      if (answer.kind === 'not_found') return { status: 'not_successful', reason: NOT_FOUND_AT_GATEWAY };
      const parsed = verifySchema.safeParse(answer.body);
      if (!parsed.success) throw unexpectedAnswer();
      const { data } = parsed.data;
      if (data.status !== 'success') return { status: 'not_successful', reason: `transaction status is ${data.status}` };
      return { status: 'successful', reference: data.reference, amountMinor: data.amount, currency: data.currency, transactionId: String(data.id ?? event.transactionId) };
    },
  };
}
