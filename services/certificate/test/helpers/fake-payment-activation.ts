import type { ActivationAuditEntry, PaymentActivationPorts, PayingUser } from '../../src/features/payments/payment-activation';
import type { PaymentKind } from '../../src/features/payments/payments.repository';
import type { InMemoryDatabase } from './in-memory-transactions';

/** One credit-ledger row as activation writes it. */
export interface FakeLedgerRow {
  organization_id: string;
  delta: number;
  reason: PaymentKind;
  reference: string;
}

/**
 * Activation's ports in memory: users' plans, the audit log, the credit ledger and organizations' balances. The ledger
 * keeps the unique index's guarantee: one grant per (organization, reason, reference), the balance moved only by a
 * grant that was made. Every table rolls back with the fake's transactions.
 */
export function createFakePaymentActivation(memory: InMemoryDatabase, users: (PayingUser & { plan: string })[] = []) {
  let plans = new Map(users.map((user) => [userKey(user), user.plan]));
  let audit: ActivationAuditEntry[] = [];
  let ledger: FakeLedgerRow[] = [];
  let balances = new Map<string, number>();
  let invoices: { reference: string; number: string }[] = [];
  memory.register({
    snapshot() {
      const saved = { plans: new Map(plans), audit: structuredClone(audit), ledger: structuredClone(ledger), balances: new Map(balances), invoices: structuredClone(invoices) };
      return () => ({ plans, audit, ledger, balances, invoices } = saved);
    },
  });

  const ports: PaymentActivationPorts = {
    async planOf(_trx, user) {
      return plans.get(userKey(user));
    },
    async setPlan(_trx, user, planId) {
      if (plans.has(userKey(user))) plans.set(userKey(user), planId);
    },
    async recordAudit(_trx, entry) {
      audit.push(structuredClone(entry));
    },
    async grantCreditsOnce(_trx, organizationId, credits, kind, reference) {
      if (ledger.some((row) => row.organization_id === organizationId && row.reason === kind && row.reference === reference)) return false;
      ledger.push({ organization_id: organizationId, delta: credits, reason: kind, reference });
      balances.set(organizationId, (balances.get(organizationId) ?? 0) + credits);
      return true;
    },
    async issueInvoice(_trx, payment) {
      const number = `INV-2026-${String(invoices.length + 1).padStart(6, '0')}`;
      invoices.push({ reference: payment.reference, number });
      return number;
    },
  };
  return {
    ports,
    planOf: (user: PayingUser) => plans.get(userKey(user)),
    audit: () => structuredClone(audit),
    ledger: () => structuredClone(ledger),
    balance: (organizationId: string) => balances.get(organizationId) ?? 0,
    invoices: () => structuredClone(invoices),
  };
}

const userKey = (user: PayingUser) => `${user.organization_id}/${user.id}`;
