/**
 * Payments as billing history: each payment with its plan period (a paid plan runs a month from its
 * activation; `renews_at` is when the next payment is due; a credit top-up has no period) and, once paid, a PDF receipt.
 */
import PDFDocument from 'pdfkit';
import { findPlan } from '../plans';

/** A paid plan's period: one month from activation. */
export const PLAN_PERIOD = 'month' as const;

export interface ReceiptPayment {
  reference: string;
  kind: 'plan_upgrade' | 'credit_top_up';
  plan: string | null;
  credits: number;
  amount: { amount: number; currency: string };
  gateway_name: string;
  gateway_transaction_id: string | null;
  activated_at: string;
  /** A plan's: its period runs from `activated_at` to here. */
  renews_at: string | null;
}

/** One calendar month after `from` (the same day of the next month, clamped to its last day). */
export function oneMonthAfter(from: Date): Date {
  const next = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return next;
}

function money(amount: { amount: number; currency: string }): string {
  return `${amount.currency} ${(amount.amount / 100).toFixed(2)}`;
}

/** A one-page A5 receipt (PDF, built-in Helvetica). */
export function renderReceipt(payment: ReceiptPayment, organizationName: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A5', margin: 48, info: { Title: `Receipt ${payment.reference}`, Author: 'Partner Platform' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(20).text('Receipt');
    doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('#555').text(`Receipt number ${payment.reference}`);
    doc.moveDown(1.5).fillColor('#000').fontSize(11);
    const rows: [string, string][] = [
      ['Billed to', organizationName],
      ...purchaseRows(payment),
      ['Paid on', payment.activated_at.slice(0, 10)],
      ['Paid with', payment.gateway_name],
      ['Transaction', payment.gateway_transaction_id ?? '—'],
      ['Amount paid', money(payment.amount)],
    ];
    for (const [label, value] of rows) {
      doc.font('Helvetica-Bold').text(label, { continued: true }).font('Helvetica').text(`   ${value}`);
      doc.moveDown(0.4);
    }
    doc.end();
  });
}

/** What was bought: a plan and its period, or a credit top-up (no period, the plan unchanged). */
function purchaseRows(payment: ReceiptPayment): [string, string][] {
  if (payment.kind === 'credit_top_up') return [['Credit top-up', `${payment.credits.toLocaleString('en')} credits (plan unchanged)`]];
  const plan = findPlan(payment.plan ?? '');
  return [
    ['Plan', `${plan?.name ?? payment.plan} (${payment.credits} credits)`],
    ['Period', `${payment.activated_at.slice(0, 10)} to ${(payment.renews_at ?? '').slice(0, 10)} (1 ${PLAN_PERIOD})`],
  ];
}
