/** The payment state machine through the real service and webhook code, over in-memory tables and a fake gateway: no HTTP, no Postgres. */
import { UnauthorizedError } from '@platform/service-kit/errors';
import type { Logger } from '@platform/service-kit/logger';
import { VerificationUnavailable, type Verification } from '../src/features/payments/payment-gateway';
import { receivePaymentWebhook } from '../src/features/payments/payment-webhooks';
import { createPaymentsService } from '../src/features/payments/payments.service';
import { createFakePaymentActivation } from './helpers/fake-payment-activation';
import { chargeWebhook, createFakePaymentGateway } from './helpers/fake-payment-gateway';
import { createFakePaymentsRepository } from './helpers/fake-payments-repository';
import { createInMemoryDatabase } from './helpers/in-memory-transactions';

const PAYER = { organization_id: 'org_unit', id: 'usr_unit' };

function setup() {
  const memory = createInMemoryDatabase();
  const repository = createFakePaymentsRepository(memory);
  const activation = createFakePaymentActivation(memory, [{ ...PAYER, plan: 'free' }]);
  const payments = createPaymentsService(memory.db, repository, activation.ports);
  const { gateway, state } = createFakePaymentGateway('gateway-a');
  const logged: string[] = [];
  const logger = { warn: (_: unknown, message: string) => logged.push(message), error: (_: unknown, message: string) => logged.push(message) } as unknown as Logger;
  /** The verify API confirms exactly what the checkout asked for. */
  state.answer = async (charge) => {
    const payment = (await repository.find(charge.reference))!;
    return { status: 'successful', reference: payment.reference, amountMinor: Number(payment.amount), currency: payment.currency, transactionId: charge.transactionId };
  };
  const deliver = (body: Buffer) => receivePaymentWebhook(gateway, body, {}, { repository, payments, logger });
  const upgrade = () => payments.checkout(PAYER.organization_id, PAYER.id, 'starter', 'gateway-a');
  const topUp = () => payments.checkoutTopUp(PAYER.organization_id, PAYER.id, 'credits_100', 'gateway-a');
  /** What a partner could notice of activation: plan, credits, ledger, audit log. */
  const account = () => ({ plan: activation.planOf(PAYER), balance: activation.balance(PAYER.organization_id), ledger: activation.ledger(), audit: activation.audit() });
  const status = async (reference: string) => (await repository.find(reference))!.status;
  const outcomes = () => repository.receipts().map((receipt) => receipt.outcome);
  return { memory, repository, activation, payments, state, logged, deliver, upgrade, topUp, account, status, outcomes };
}

const NOTHING_ACTIVATED = { plan: 'free', balance: 0, ledger: [], audit: [] };

describe('a plan upgrade through its payment life cycle', () => {
  it('a verified successful charge activates the plan: plan set, its credits added once, one audit entry', async () => {
    const t = setup();
    const payment = await t.upgrade();
    expect(payment).toMatchObject({ status: 'pending', plan: 'starter', credits: 100 });

    await expect(t.deliver(chargeWebhook(payment.reference, 'txn_1'))).resolves.toEqual({ status: 200, body: { received: true } });

    expect(await t.repository.find(payment.reference)).toMatchObject({ status: 'succeeded', gateway_transaction_id: 'txn_1', failure_reason: null });
    expect(t.account()).toEqual({
      plan: 'starter',
      balance: 100,
      ledger: [{ organization_id: PAYER.organization_id, delta: 100, reason: 'plan_upgrade', reference: payment.reference }],
      audit: [expect.objectContaining({ action: 'plan.changed', target_id: payment.reference, details: expect.objectContaining({ from: 'free', to: 'starter', transaction_id: 'txn_1' }) })],
    });
    expect(t.outcomes()).toEqual(['activated']);
  });

  it('the same webhook applied twice activates once: the second is answered 200 and changes nothing', async () => {
    const t = setup();
    const payment = await t.upgrade();
    await t.deliver(chargeWebhook(payment.reference));
    const afterFirst = t.account();

    await expect(t.deliver(chargeWebhook(payment.reference))).resolves.toEqual({ status: 200, body: { received: true } });

    expect(t.account()).toEqual(afterFirst);
    expect(t.account()).toMatchObject({ balance: 100, ledger: [expect.anything()], audit: [expect.anything()] });
    expect(t.outcomes()).toEqual(['activated', 'already_activated']);
    expect(t.state.verified).toHaveLength(1);
  });

  it('the same webhook applied concurrently, both past the status check and both verified, activates once', async () => {
    const t = setup();
    const payment = await t.upgrade();
    const verify = t.state.answer;
    // Both deliveries wait at the verify API until both have reached it, so both saw the payment pending.
    let release!: () => void;
    const bothVerifying = new Promise<void>((resolve) => (release = resolve));
    t.state.answer = async (charge) => {
      if (t.state.verified.length === 2) release();
      await bothVerifying;
      return verify(charge);
    };

    const answers = await Promise.all([t.deliver(chargeWebhook(payment.reference)), t.deliver(chargeWebhook(payment.reference))]);

    expect(answers).toEqual([
      { status: 200, body: { received: true } },
      { status: 200, body: { received: true } },
    ]);
    expect(t.state.verified).toHaveLength(2);
    expect(t.account()).toMatchObject({ plan: 'starter', balance: 100, ledger: [expect.objectContaining({ delta: 100 })], audit: [expect.objectContaining({ action: 'plan.changed' })] });
    expect(t.outcomes().sort()).toEqual(['activated', 'already_activated']);
    expect(await t.status(payment.reference)).toBe('succeeded');
  });

  it.each<[string, (price: { amount: number; currency: string; reference: string }) => Verification, string]>([
    ['the gateway says the charge failed', () => ({ status: 'not_successful', reason: 'card declined' }), 'card declined'],
    ['the charge is below the price', (p) => ({ status: 'successful', reference: p.reference, amountMinor: p.amount - 1, currency: p.currency, transactionId: 't' }), 'amount 499999 is below the price 500000'],
    ['the charge is in another currency', (p) => ({ status: 'successful', reference: p.reference, amountMinor: p.amount, currency: 'USD', transactionId: 't' }), 'currency USD differs from NGN'],
    ['the verified charge is of another checkout', (p) => ({ status: 'successful', reference: 'pay_other', amountMinor: p.amount, currency: p.currency, transactionId: 't' }), 'verified reference differs from the checkout'],
  ])('when %s, the payment is marked failed and nothing is activated', async (_case, answer, reason) => {
    const t = setup();
    const payment = await t.upgrade();
    t.state.answer = async () => answer({ amount: payment.amount.amount, currency: payment.amount.currency, reference: payment.reference });

    await expect(t.deliver(chargeWebhook(payment.reference))).resolves.toEqual({ status: 200, body: { received: true } });

    expect(await t.repository.find(payment.reference)).toMatchObject({ status: 'failed', failure_reason: reason });
    expect(t.account()).toEqual(NOTHING_ACTIVATED);
    expect(t.outcomes()).toEqual(['payment_failed']);
  });

  it('an unauthenticated webhook is a receipt only: never verified, the payment stays pending', async () => {
    const t = setup();
    const payment = await t.upgrade();
    t.state.trust = 'unauthenticated';

    await expect(t.deliver(chargeWebhook(payment.reference))).resolves.toEqual({ status: 200, body: { received: true } });

    expect(t.state.verified).toEqual([]);
    expect(await t.status(payment.reference)).toBe('pending');
    expect(t.account()).toEqual(NOTHING_ACTIVATED);
    expect(t.repository.receipts()).toEqual([expect.objectContaining({ outcome: 'unauthenticated', body: null })]);
  });

  it('a webhook with a wrong signature is refused (401) and changes nothing', async () => {
    const t = setup();
    const payment = await t.upgrade();
    t.state.trust = 'rejected';

    await expect(t.deliver(chargeWebhook(payment.reference))).rejects.toBeInstanceOf(UnauthorizedError);

    expect(t.state.verified).toEqual([]);
    expect(await t.status(payment.reference)).toBe('pending');
    expect(t.account()).toEqual(NOTHING_ACTIVATED);
    expect(t.outcomes()).toEqual(['rejected_signature']);
  });

  it('when the verify API gives no answer, the webhook is answered 503 and the payment stays pending for the retry', async () => {
    const t = setup();
    const payment = await t.upgrade();
    const verify = t.state.answer;
    t.state.answer = async () => {
      throw new VerificationUnavailable('verify API answered 502');
    };

    await expect(t.deliver(chargeWebhook(payment.reference))).resolves.toMatchObject({ status: 503, body: { code: 'verification_unavailable' } });
    expect(await t.status(payment.reference)).toBe('pending');
    expect(t.account()).toEqual(NOTHING_ACTIVATED);

    t.state.answer = verify;
    await t.deliver(chargeWebhook(payment.reference));
    expect(t.account()).toMatchObject({ plan: 'starter', balance: 100 });
    expect(t.outcomes()).toEqual(['verification_unavailable', 'activated']);
  });

  it('a succeeded payment is never marked failed by a later failing webhook', async () => {
    const t = setup();
    const payment = await t.upgrade();
    await t.deliver(chargeWebhook(payment.reference));
    t.state.answer = async () => ({ status: 'not_successful', reason: 'reversed' });

    await t.deliver(chargeWebhook(payment.reference, 'txn_later'));

    expect(await t.repository.find(payment.reference)).toMatchObject({ status: 'succeeded', failure_reason: null });
    expect(t.account()).toMatchObject({ plan: 'starter', balance: 100, ledger: [expect.anything()] });
  });

  it('when activation fails half-way, nothing of it stays: the payment is pending again and a retry activates it', async () => {
    const t = setup();
    const payment = await t.upgrade();
    const grant = t.activation.ports.grantCreditsOnce;
    t.activation.ports.grantCreditsOnce = async () => {
      throw new Error('ledger unavailable');
    };

    await expect(t.deliver(chargeWebhook(payment.reference))).rejects.toThrow('ledger unavailable');
    expect(await t.status(payment.reference)).toBe('pending');
    expect(t.account()).toEqual(NOTHING_ACTIVATED);

    t.activation.ports.grantCreditsOnce = grant;
    await t.deliver(chargeWebhook(payment.reference));
    expect(t.account()).toMatchObject({ plan: 'starter', balance: 100, audit: [expect.anything()] });
  });
});

describe('a credit top-up through its payment life cycle', () => {
  it('adds the pack’s credits once, as one ledger row keyed by the payment, and leaves the plan', async () => {
    const t = setup();
    const payment = await t.topUp();
    expect(payment).toMatchObject({ kind: 'credit_top_up', credit_pack: 'credits_100', credits: 100, plan: null });

    await t.deliver(chargeWebhook(payment.reference, 'txn_top'));
    await t.deliver(chargeWebhook(payment.reference, 'txn_top'));

    expect(await t.status(payment.reference)).toBe('succeeded');
    expect(t.account()).toEqual({
      plan: 'free',
      balance: 100,
      ledger: [{ organization_id: PAYER.organization_id, delta: 100, reason: 'credit_top_up', reference: payment.reference }],
      audit: [expect.objectContaining({ action: 'credits.topped_up', target_id: payment.reference, details: expect.objectContaining({ credit_pack: 'credits_100', credits: 100 }) })],
    });
    expect(t.outcomes()).toEqual(['activated', 'already_activated']);
  });

  it('two top-ups are two grants, each once', async () => {
    const t = setup();
    const first = await t.topUp();
    const second = await t.topUp();

    await Promise.all([t.deliver(chargeWebhook(first.reference)), t.deliver(chargeWebhook(second.reference)), t.deliver(chargeWebhook(first.reference))]);

    expect(t.account()).toMatchObject({ plan: 'free', balance: 200 });
    expect(t.account().ledger.map((row) => row.reference).sort()).toEqual([first.reference, second.reference].sort());
  });
});

describe('a webhook that names no payment of its gateway', () => {
  it('an unknown reference is received (200) and changes nothing', async () => {
    const t = setup();
    const payment = await t.upgrade();

    await expect(t.deliver(chargeWebhook('pay_unknown'))).resolves.toEqual({ status: 200, body: { received: true } });

    expect(t.state.verified).toEqual([]);
    expect(await t.status(payment.reference)).toBe('pending');
    expect(t.account()).toEqual(NOTHING_ACTIVATED);
    expect(t.repository.receipts()).toEqual([expect.objectContaining({ outcome: 'unknown_reference', reference: 'pay_unknown' })]);
  });

  it('a reference checked out with the other gateway is unknown to this one', async () => {
    const t = setup();
    const payment = await t.payments.checkout(PAYER.organization_id, PAYER.id, 'starter', 'gateway-b');

    await t.deliver(chargeWebhook(payment.reference));

    expect(t.state.verified).toEqual([]);
    expect(await t.status(payment.reference)).toBe('pending');
    expect(t.account()).toEqual(NOTHING_ACTIVATED);
    expect(t.outcomes()).toEqual(['unknown_reference']);
  });
});
