import { newId } from '@platform/service-kit/ids';
import { NotFoundError, ValidationError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';
import { findCreditPack } from '../plans';
import { findPlan } from '../plans';
import { createKnexPaymentActivationPorts, type PaymentActivationPorts } from './payment-activation';
import type { PaymentRow, PaymentsRepository } from './payments.repository';
import { presentPayment } from './payments.presenter';

export function createPaymentsService(db: Knex, repository: PaymentsRepository, activation: PaymentActivationPorts = createKnexPaymentActivationPorts()) {
  return {
    /** A pending payment of the calling user for a paid plan; its reference is what the checkout sends to the gateway. */
    async checkout(organizationId: string, userId: string, planId: string, gateway: PaymentRow['gateway']) {
      const plan = findPlan(planId);
      if (!plan) throw new NotFoundError('Plan not found');
      if (plan.price.amount === 0) throw new ValidationError([{ path: 'plan', message: 'the free plan needs no checkout' }]);
      const row = await repository.insert({
        reference: newId('pay'),
        organization_id: organizationId,
        user_id: userId,
        kind: 'plan_upgrade',
        plan: plan.id,
        amount: plan.price.amount,
        currency: plan.price.currency,
        gateway,
      });
      return presentPayment(row);
    },

    /** A pending payment for a credit pack: once paid it adds the pack's credits to the organization, plan untouched. */
    async checkoutTopUp(organizationId: string, userId: string, packId: string, gateway: PaymentRow['gateway']) {
      const pack = findCreditPack(packId);
      if (!pack) throw new NotFoundError('Credit pack not found');
      const row = await repository.insert({
        reference: newId('pay'),
        organization_id: organizationId,
        user_id: userId,
        kind: 'credit_top_up',
        credit_pack: pack.id,
        credits: pack.credits,
        amount: pack.price.amount,
        currency: pack.price.currency,
        gateway,
      });
      return presentPayment(row);
    },

    /**
     * Activation, once per payment whatever races: the payment is claimed with a conditional update, then (an upgrade)
     * the user's plan is set and the plan's credits added, or (a top-up) the pack's credits added, as a ledger row keyed
     * by the payment reference, and the payment's invoice issued with the next number of the year, all in one
     * transaction (a rollback gives the number back, so numbers have no gaps).
     */
    async activate(reference: string, transactionId: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const payment = await repository.claimSuccess(trx, reference, transactionId);
        if (!payment) return false;
        if (payment.kind === 'credit_top_up') await addTopUp(activation, trx, payment, transactionId);
        else await upgradePlan(activation, trx, payment, transactionId);
        await activation.issueInvoice(trx, payment);
        return true;
      });
    },
  };
}

async function upgradePlan(ports: PaymentActivationPorts, trx: Knex.Transaction, payment: PaymentRow, transactionId: string): Promise<void> {
  const plan = findPlan(payment.plan!)!;
  const user = { organization_id: payment.organization_id, id: payment.user_id };
  const before = await ports.planOf(trx, user);
  await ports.recordAudit(trx, {
    organization_id: payment.organization_id,
    actor_id: payment.user_id,
    actor_role: 'payment',
    action: 'plan.changed',
    target_id: payment.reference,
    details: { from: before ?? null, to: plan.id, gateway: payment.gateway, transaction_id: transactionId },
    ip_address: 'payment gateway webhook',
  });
  await ports.setPlan(trx, user, plan.id);
  await ports.grantCreditsOnce(trx, payment.organization_id, plan.credits, 'plan_upgrade', payment.reference);
}

async function addTopUp(ports: PaymentActivationPorts, trx: Knex.Transaction, payment: PaymentRow, transactionId: string): Promise<void> {
  await ports.recordAudit(trx, {
    organization_id: payment.organization_id,
    actor_id: payment.user_id,
    actor_role: 'payment',
    action: 'credits.topped_up',
    target_id: payment.reference,
    details: { credit_pack: payment.credit_pack, credits: payment.credits, gateway: payment.gateway, transaction_id: transactionId },
    ip_address: 'payment gateway webhook',
  });
  await ports.grantCreditsOnce(trx, payment.organization_id, Number(payment.credits), 'credit_top_up', payment.reference);
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
