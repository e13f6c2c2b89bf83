import { newId, NotFoundError, recordAuditEntry, ValidationError, type Knex } from '@platform/service-kit';
import { grantCreditsOnce } from '../credits/credit-ledger';
import { findPlan } from '../plans/plans';
import type { PaymentRow, PaymentsRepository } from './payments.repository';

export function presentPayment(row: PaymentRow) {
  return {
    reference: row.reference,
    plan: row.plan,
    amount: { amount: Number(row.amount), currency: row.currency },
    gateway: row.gateway,
    status: row.status,
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
  };
}

export function paymentsService(db: Knex, repository: PaymentsRepository) {
  return {
    /** A pending payment of the calling user for a paid plan; its reference is what the checkout sends to the gateway. */
    async checkout(organizationId: string, userId: string, planId: string, gateway: string) {
      const plan = findPlan(planId);
      if (!plan) throw new NotFoundError('Plan not found');
      if (plan.price.amount === 0) throw new ValidationError([{ path: 'plan', message: 'the free plan needs no checkout' }]);
      const row = await repository.insert({
        reference: newId('pay'),
        organization_id: organizationId,
        user_id: userId,
        plan: plan.id,
        amount: plan.price.amount,
        currency: plan.price.currency,
        gateway,
      });
      return presentPayment(row);
    },

    /**
     * Activation, once per payment whatever races: the payment is claimed with a conditional update, then the user's
     * plan is set and the plan's credits are added as a ledger row keyed by the payment reference, all in one transaction.
     */
    async activate(reference: string, transactionId: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const payment = await repository.claimSuccess(trx, reference, transactionId);
        if (!payment) return false;
        const plan = findPlan(payment.plan)!;
        const before = (await trx('users').where({ organization_id: payment.organization_id, id: payment.user_id }).first('plan')) as { plan?: string } | undefined;
        await recordAuditEntry(trx, {
          organization_id: payment.organization_id,
          actor_id: payment.user_id,
          actor_role: 'payment',
          action: 'plan.changed',
          target_id: payment.reference,
          details: { from: before?.plan ?? null, to: plan.id, gateway: payment.gateway, transaction_id: transactionId },
          ip_address: 'payment gateway webhook',
        });
        await trx('users').where({ organization_id: payment.organization_id, id: payment.user_id }).update({ plan: plan.id, updated_at: trx.fn.now() });
        await grantCreditsOnce(trx, payment.organization_id, plan.credits, 'plan_upgrade', payment.reference);
        return true;
      });
    },
  };
}

export type PaymentsService = ReturnType<typeof paymentsService>;
