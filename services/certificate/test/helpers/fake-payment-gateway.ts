import type { IncomingHttpHeaders } from 'node:http';
import { MalformedEvent, type GatewayEvent, type PaymentGateway, type Verification, type WebhookTrust } from '../../src/features/payments/payment-gateway';

type Charge = Extract<GatewayEvent, { kind: 'charge' }>;

/**
 * A payment gateway in memory: every webhook gets the trust set in `trust`, a body `{ event, reference, transaction_id }`
 * is a charge when its event is `charge.success`, and the verify API answers what `answer` says (by default a successful
 * charge of what `price` names for the reference). `verified` holds every charge it was asked to verify.
 */
export function createFakePaymentGateway(id: PaymentGateway['id'] = 'gateway-a') {
  const state = {
    trust: 'authenticated' as WebhookTrust,
    configured: true,
    /** What the verify API answers for a charge; replace to script a failure, an underpayment or an outage. */
    answer: async (_charge: Charge): Promise<Verification> => {
      throw new Error('set gateway.answer');
    },
    verified: [] as Charge[],
  };
  const gateway: PaymentGateway = {
    id,
    displayName: `Fake ${id}`,
    isConfigured: () => state.configured,
    async initialize() {
      throw new Error('the fake gateway opens no payment page');
    },
    authenticate: (_rawBody: Buffer, _headers: IncomingHttpHeaders) => state.trust,
    parseEvent(body) {
      const { event, reference, transaction_id: transactionId } = (body ?? {}) as Record<string, unknown>;
      if (typeof event !== 'string') throw new MalformedEvent('no event');
      if (event !== 'charge.success') return { kind: 'ignored', event };
      if (typeof reference !== 'string' || typeof transactionId !== 'string') throw new MalformedEvent('no reference or transaction id');
      return { kind: 'charge', event, reference, transactionId };
    },
    async verify(charge) {
      state.verified.push(charge);
      return state.answer(charge);
    },
  };
  return { gateway, state };
}

/** A webhook body of the fake gateway: a successful charge of `reference`. */
export function chargeWebhook(reference: string, transactionId = `txn_${reference}`): Buffer {
  return Buffer.from(JSON.stringify({ event: 'charge.success', reference, transaction_id: transactionId }));
}
