import { recordAuditEntry, type NewAuditEntry } from '@platform/service-kit/audit-trail';
import type { Knex } from '@platform/service-kit/db';
import { grantCreditsOnce } from '../credits';
import { issueInvoice, type InvoiceSettings } from './invoices.repository';
import type { PaymentKind, PaymentRow } from './payments.repository';

/** The user a plan upgrade is for: the one who paid, in the organization paid for. */
export interface PayingUser {
  organization_id: string;
  id: string;
}

/** An audit row as activation writes it (the log fills `id` and `created_at`). */
export type ActivationAuditEntry = NewAuditEntry;

/**
 * What activating a payment writes besides the payment, each inside the activation's transaction: the paying user's
 * plan, the audit log, the credit ledger (a grant keyed by the payment reference, made at most once) and the invoice
 * (numbered without gaps: a number rolls back with its transaction).
 */
export interface PaymentActivationPorts {
  /** The plan the user is on before the change; undefined when there is no such user. */
  planOf(trx: Knex.Transaction, user: PayingUser): Promise<string | undefined>;
  setPlan(trx: Knex.Transaction, user: PayingUser, planId: string): Promise<void>;
  recordAudit(trx: Knex.Transaction, entry: ActivationAuditEntry): Promise<void>;
  /** Adds `credits` once per (organization, kind, reference); answers false when that grant was already made. */
  grantCreditsOnce(trx: Knex.Transaction, organizationId: string, credits: number, kind: PaymentKind, reference: string): Promise<boolean>;
  /** Issues the invoice of the payment just claimed; answers its number. */
  issueInvoice(trx: Knex.Transaction, payment: PaymentRow): Promise<string>;
}

/** The ports over Postgres: the users table, `audit_log`, `credit_ledger` and `invoices` (the seller and VAT from `invoicing`). */
export function createKnexPaymentActivationPorts(invoicing: InvoiceSettings = { sellerName: 'Partner Platform' }): PaymentActivationPorts {
  return {
    async planOf(trx, user) {
      const row = (await trx('users').where(user).first('plan')) as { plan?: string } | undefined;
      return row?.plan;
    },
    async setPlan(trx, user, planId) {
      await trx('users').where(user).update({ plan: planId, updated_at: trx.fn.now() });
    },
    recordAudit: (trx, entry) => recordAuditEntry(trx, entry),
    grantCreditsOnce: (trx, organizationId, credits, kind, reference) => grantCreditsOnce(trx, organizationId, credits, kind, reference),
    issueInvoice: async (trx, payment) => (await issueInvoice(trx, payment, invoicing)).number,
  };
}
