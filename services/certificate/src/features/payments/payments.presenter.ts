import type { z } from 'zod';
import { findPlan } from '../plans';
import type { paymentSchema } from './payments.contract';
import type { PaymentRow } from './payments.repository';

/** The credits a payment adds once paid: its pack's (fixed at checkout) or its plan's. */
export function creditsOf(row: PaymentRow): number {
  return row.kind === 'credit_top_up' ? Number(row.credits) : (findPlan(row.plan ?? '')?.credits ?? 0);
}

/** A payment as checkouts answer it (billing history adds its gateway name and dates). */
export function presentPayment(row: PaymentRow): z.infer<typeof paymentSchema> {
  return {
    reference: row.reference,
    kind: row.kind,
    plan: row.plan,
    credit_pack: row.credit_pack,
    credits: creditsOf(row),
    amount: { amount: Number(row.amount), currency: row.currency },
    gateway: row.gateway,
    status: row.status,
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
  };
}
