import { createHash } from 'node:crypto';
import type { NewPaymentRow, PaymentRow, PaymentsRepository, WebhookSettlement } from '../../src/features/payments/payments.repository';
import type { InMemoryDatabase } from './in-memory-transactions';

/** A stored payment-webhook receipt, as the `payment_webhooks` table holds it. */
export interface FakeWebhookReceipt extends Partial<WebhookSettlement> {
  id: number;
  gateway: string;
  body: Buffer | null;
  body_size: number;
  body_sha256: string;
}

/**
 * The payments and payment-webhook tables in memory, with the SQL's guarantees: a payment is claimed as succeeded by
 * exactly one caller (the conditional update), a succeeded payment is never marked failed, lists are newest first.
 * A claim rolls back with the fake's transaction. Rows are copied in and out, so a caller never changes a stored row by hand.
 */
export function createFakePaymentsRepository(
  memory: InMemoryDatabase,
  names: { organizations?: Record<string, string>; accountEmails?: Record<string, string> } = {},
): PaymentsRepository & { rows(): PaymentRow[]; receipts(): FakeWebhookReceipt[] } {
  const payments = new Map<string, PaymentRow>();
  const receipts: FakeWebhookReceipt[] = [];
  let clock = 0;
  /** Distinct, increasing times, so newest first is the order of insertion. */
  const now = () => new Date(Date.UTC(2026, 0, 1) + ++clock * 1000);
  // Only a claim runs inside a transaction (checkouts, failures and receipts are written outside one), so a rollback
  // puts back the rows its claims changed and nothing else. The fake's transactions run one at a time.
  let undo: (() => void)[] | undefined;
  memory.register({
    snapshot() {
      const changes: (() => void)[] = [];
      undo = changes;
      return () => {
        for (const change of changes.reverse()) change();
        undo = undefined;
      };
    },
  });

  return {
    async insert(row: NewPaymentRow) {
      if (payments.has(row.reference)) throw new Error(`duplicate key: payment ${row.reference}`);
      const stored: PaymentRow = {
        plan: null,
        credit_pack: null,
        credits: null,
        ...row,
        amount: String(row.amount), // bigint comes back as text
        status: 'pending',
        failure_reason: null,
        created_at: now(),
        activated_at: null,
        gateway_transaction_id: null,
      };
      payments.set(stored.reference, structuredClone(stored));
      return structuredClone(stored);
    },
    async find(reference) {
      const row = payments.get(reference);
      return row && structuredClone(row);
    },
    async listForOrganization(organizationId) {
      return [...payments.values()]
        .filter((row) => row.organization_id === organizationId)
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.reference < b.reference ? 1 : a.reference > b.reference ? -1 : 0))
        .slice(0, 100)
        .map((row) => structuredClone(row));
    },
    async organizationName(organizationId) {
      return names.organizations?.[organizationId] ?? organizationId;
    },
    async payerEmail(accountId) {
      return names.accountEmails?.[accountId];
    },
    async markFailed(reference, reason) {
      const row = payments.get(reference);
      if (!row || row.status === 'succeeded') return;
      payments.set(reference, { ...row, status: 'failed', failure_reason: reason });
    },
    async claimSuccess(_trx, reference, transactionId) {
      const row = payments.get(reference);
      // Check and change with no await between them: one caller at a time gets the row, as with the conditional UPDATE.
      if (!row || row.status === 'succeeded') return undefined;
      const claimed: PaymentRow = { ...row, status: 'succeeded', failure_reason: null, gateway_transaction_id: transactionId, activated_at: now() };
      payments.set(reference, structuredClone(claimed));
      undo?.push(() => payments.set(reference, row));
      return structuredClone(claimed);
    },
    async recordWebhook(gateway, body, { keepBody }) {
      const id = receipts.length + 1;
      receipts.push({ id, gateway, body: keepBody ? Buffer.from(body) : null, body_size: body.length, body_sha256: createHash('sha256').update(body).digest('hex') });
      return id;
    },
    async settleWebhook(id, fields) {
      const index = receipts.findIndex((receipt) => receipt.id === id);
      if (index >= 0) receipts[index] = { ...receipts[index]!, ...fields };
    },
    rows: () => [...payments.values()].map((row) => structuredClone(row)),
    receipts: () => structuredClone(receipts),
  };
}
