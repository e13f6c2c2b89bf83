import { BadRequestError, ServiceUnavailableError, UnauthorizedError } from '@platform/service-kit';
import type { IncomingHttpHeaders } from 'node:http';
import { MalformedEvent, VerificationUnavailable, type PaymentGateway } from './payment-gateway';
import type { PaymentsRepository } from './payments.repository';
import type { paymentsService } from './payments.service';

type Outcome = { status: number; body: Record<string, unknown> };
const RECEIVED: Outcome = { status: 200, body: { received: true } };

/**
 * One inbound payment webhook, in order: store it, authenticate the raw bytes, parse, find the checkout, confirm the
 * charge with the gateway's own API, compare amount and currency, activate once. The stored row ends with the outcome.
 */
export async function receivePaymentWebhook(
  gateway: PaymentGateway,
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  repository: PaymentsRepository,
  payments: ReturnType<typeof paymentsService>,
): Promise<Outcome> {
  const receiptId = await repository.recordWebhook(gateway.id, rawBody);
  const settle = (outcome: string, fields: { event?: string; reference?: string; transaction_id?: string; detail?: string } = {}) =>
    repository.settleWebhook(receiptId, { outcome, ...fields });

  if (!gateway.isConfigured()) {
    await settle('not_configured');
    throw new ServiceUnavailableError(`Payment gateway ${gateway.id} is not configured`, 'gateway_not_configured');
  }
  if (!gateway.authenticate(rawBody, headers)) {
    await settle('rejected_signature');
    throw new UnauthorizedError('Invalid webhook signature', 'invalid_signature');
  }
  let event;
  try {
    event = gateway.parseEvent(JSON.parse(rawBody.toString('utf8')));
  } catch (error) {
    const detail = error instanceof MalformedEvent ? error.message : 'body is not valid JSON';
    await settle('malformed', { detail });
    throw error instanceof MalformedEvent ? new BadRequestError(`Malformed webhook: ${detail}`, 'malformed_webhook') : new BadRequestError('Request body is not valid JSON', 'invalid_json');
  }
  if (event.kind === 'ignored') {
    await settle('ignored', { event: event.event });
    return RECEIVED;
  }
  const fields = { event: event.event, reference: event.reference, transaction_id: event.transactionId };
  const payment = await repository.find(event.reference);
  if (!payment || payment.gateway !== gateway.id) {
    await settle('unknown_reference', fields);
    return RECEIVED;
  }
  if (payment.status === 'succeeded') {
    await settle('already_activated', fields);
    return RECEIVED;
  }
  let verification;
  try {
    verification = await gateway.verify(event);
  } catch (error) {
    if (!(error instanceof VerificationUnavailable)) throw error;
    await settle('verification_unavailable', { ...fields, detail: error.message });
    throw new ServiceUnavailableError('Could not verify the transaction with the payment gateway; retry later', 'verification_unavailable');
  }
  const mismatch =
    verification.status !== 'successful'
      ? verification.reason
      : verification.reference !== payment.reference
        ? 'verified reference differs from the checkout'
        : verification.currency !== payment.currency
          ? `currency ${verification.currency} differs from ${payment.currency}`
          : verification.amountMinor < Number(payment.amount)
            ? `amount ${verification.amountMinor} is below the price ${payment.amount}`
            : null;
  if (mismatch) {
    await repository.markFailed(payment.reference, mismatch);
    await settle('payment_failed', { ...fields, detail: mismatch });
    return RECEIVED;
  }
  const activated = await payments.activate(payment.reference, event.transactionId);
  await settle(activated ? 'activated' : 'already_activated', fields);
  return RECEIVED;
}

