import { BadRequestError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '@platform/service-kit/errors';
import { controlCharacterIssues } from '@platform/service-kit/validation';
import type { Logger } from '@platform/service-kit/logger';
import type { IncomingHttpHeaders } from 'node:http';
import { MalformedEvent, VerificationUnavailable, type PaymentGateway } from './payment-gateway';
import type { PaymentsRepository } from './payments.repository';
import type { PaymentsService } from './payments.service';

type Outcome = { status: number; body: Record<string, unknown> };
const RECEIVED: Outcome = { status: 200, body: { received: true } };
const VERIFICATION_UNAVAILABLE: Outcome = {
  status: 503,
  body: { error: 'Could not verify the transaction with the payment gateway; retry later', code: 'verification_unavailable' },
};

export interface PaymentWebhookDeps {
  repository: PaymentsRepository;
  payments: PaymentsService;
  logger: Logger;
}

/**
 * One inbound payment webhook, in order: authenticate the raw bytes, store the receipt, parse, find the checkout,
 * confirm the charge with the gateway's own API, compare amount and currency, activate once. The stored row ends
 * with the outcome. Only an authenticated call keeps its body; of any other call we keep metadata only.
 */
export async function receivePaymentWebhook(gateway: PaymentGateway, rawBody: Buffer, headers: IncomingHttpHeaders, deps: PaymentWebhookDeps): Promise<Outcome> {
  const { repository, payments, logger } = deps;
  const trust = gateway.isConfigured() ? gateway.authenticate(rawBody, headers) : 'not_configured';
  const receiptId = await repository.recordWebhook(gateway.id, rawBody, { keepBody: trust === 'authenticated' });
  const settle = (outcome: string, fields: { event?: string; reference?: string; transaction_id?: string; detail?: string } = {}) =>
    repository.settleWebhook(receiptId, { outcome, ...fields });

  if (trust === 'not_configured') {
    await settle('not_configured');
    throw new ServiceUnavailableError(`Payment gateway ${gateway.id} is not configured`, 'gateway_not_configured');
  }
  if (trust === 'rejected') {
    await settle('rejected_signature');
    throw new UnauthorizedError('Invalid webhook signature', 'invalid_signature');
  }
  if (trust === 'unauthenticated') {
    // Nothing proves who sent it (gateway B without GATEWAY_B_SECRET_HASH): a receipt, never a change to a payment.
    await settle('unauthenticated');
    return RECEIVED;
  }
  let event;
  try {
    const body: unknown = JSON.parse(rawBody.toString('utf8'));
    // A control character (NUL above all) in any text of the body is refused before a reference reaches the database.
    const controlIssues = controlCharacterIssues(body);
    if (controlIssues.length > 0) {
      await settle('malformed', { detail: 'text fields hold control characters' });
      throw new ValidationError(controlIssues);
    }
    event = gateway.parseEvent(body);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
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
    const log = { gateway: gateway.id, reference: payment.reference, reason: error.message };
    if (error.credentialsRefused) logger.error(log, 'payment gateway refused our secret key: check its configuration');
    else logger.warn(log, 'payment verification unavailable: the gateway will retry');
    await settle('verification_unavailable', { ...fields, detail: error.message });
    return VERIFICATION_UNAVAILABLE; // answered, not thrown: logged above at the level it deserves
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
