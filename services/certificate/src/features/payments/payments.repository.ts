import { createHash } from 'node:crypto';
import type { Knex } from '@platform/service-kit/db';
import type { PaymentGateway } from './payment-gateway';

/** What a payment buys: a plan (set on the paying user) or a credit pack (credits added, the plan untouched). */
export type PaymentKind = 'plan_upgrade' | 'credit_top_up';

export interface PaymentRow {
  reference: string;
  organization_id: string;
  user_id: string;
  kind: PaymentKind;
  /** The plan of an upgrade; null for a top-up. */
  plan: string | null;
  /** The pack of a top-up and the credits it adds (fixed at checkout); null for an upgrade. */
  credit_pack: string | null;
  credits: number | null;
  amount: string; // bigint comes back as text
  currency: string;
  gateway: PaymentGateway['id'];
  status: 'pending' | 'succeeded' | 'failed';
  failure_reason: string | null;
  created_at: Date;
  activated_at?: Date | null;
  gateway_transaction_id?: string | null;
}

/** A new checkout: `pending`, created now; `amount` in minor units. */
export type NewPaymentRow = Omit<PaymentRow, 'status' | 'failure_reason' | 'created_at' | 'amount' | 'plan' | 'credit_pack' | 'credits'> & { amount: number } & Partial<
    Pick<PaymentRow, 'plan' | 'credit_pack' | 'credits'>
  >;

/** How a stored webhook receipt ends: its outcome and what the event named. */
export interface WebhookSettlement {
  outcome: string;
  event?: string;
  reference?: string;
  transaction_id?: string;
  detail?: string;
}

/** The payments table, the payment-webhook receipts, and the two names a receipt shows (organization, payer). */
export interface PaymentsRepository {
  insert(row: NewPaymentRow): Promise<PaymentRow>;
  find(reference: string): Promise<PaymentRow | undefined>;
  /** The organization's payments, newest first (the last 100). */
  listForOrganization(organizationId: string): Promise<PaymentRow[]>;
  /** The organization's name, or its id when it has none. */
  organizationName(organizationId: string): Promise<string>;
  /** The email of the account paying (dashboard sessions' `sub` is the account id); undefined for other subjects. */
  payerEmail(accountId: string): Promise<string | undefined>;
  /** Marks the payment failed with `reason`, unless it already succeeded. */
  markFailed(reference: string, reason: string): Promise<void>;
  /**
   * Marks the payment succeeded unless it already is; returns it only to the one caller that made the change
   * (concurrent claims of one payment: exactly one gets the row).
   */
  claimSuccess(trx: Knex.Transaction, reference: string, transactionId: string): Promise<PaymentRow | undefined>;
  /** A receipt: size and SHA-256 always, the bytes themselves only when `keepBody` (an authenticated call); answers its id. */
  recordWebhook(gateway: string, body: Buffer, options: { keepBody: boolean }): Promise<number>;
  settleWebhook(id: number, fields: WebhookSettlement): Promise<void>;
}

export function createPaymentsRepository(db: Knex): PaymentsRepository {
  return {
    async insert(row: NewPaymentRow): Promise<PaymentRow> {
      const [inserted] = await db('payments').insert(row).returning('*');
      return inserted as PaymentRow;
    },
    async find(reference: string): Promise<PaymentRow | undefined> {
      return db('payments').where({ reference }).first();
    },
    /** The organization's payments, newest first (the last 100). */
    async listForOrganization(organizationId: string): Promise<PaymentRow[]> {
      return db('payments').where({ organization_id: organizationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'reference', order: 'desc' }]).limit(100);
    },
    async organizationName(organizationId: string): Promise<string> {
      const row = (await db('organizations').where({ id: organizationId }).first('name')) as { name?: string } | undefined;
      return row?.name ?? organizationId;
    },
    /** The email of the account paying (dashboard sessions' `sub` is the account id); undefined for other subjects. */
    async payerEmail(accountId: string): Promise<string | undefined> {
      const row = (await db('accounts').where({ id: accountId }).first('email')) as { email: string } | undefined;
      return row?.email;
    },
    async markFailed(reference: string, reason: string): Promise<void> {
      await db('payments').where({ reference }).whereNot({ status: 'succeeded' }).update({ status: 'failed', failure_reason: reason, updated_at: db.fn.now() });
    },
    /** Marks the payment succeeded unless it already is; returns it only to the one caller that made the change. */
    async claimSuccess(trx: Knex.Transaction, reference: string, transactionId: string): Promise<PaymentRow | undefined> {
      const [row] = await trx('payments')
        .where({ reference })
        .whereNot({ status: 'succeeded' })
        .update({ status: 'succeeded', failure_reason: null, gateway_transaction_id: transactionId, activated_at: trx.fn.now(), updated_at: trx.fn.now() })
        .returning('*');
      return row as PaymentRow | undefined;
    },
    /** A receipt: size and SHA-256 always, the bytes themselves only when `keepBody` (an authenticated call). */
    async recordWebhook(gateway: string, body: Buffer, { keepBody }: { keepBody: boolean }): Promise<number> {
      const [row] = await db('payment_webhooks')
        .insert({ gateway, body: keepBody ? body : null, body_size: body.length, body_sha256: createHash('sha256').update(body).digest('hex') })
        .returning('id');
      return (row as { id: number }).id;
    },
    async settleWebhook(id: number, fields: WebhookSettlement): Promise<void> {
      await db('payment_webhooks').where({ id }).update(fields);
    },
  };
}
