/**
 * Payments as billing history (issue 28 item 6): each payment with its plan period (a paid plan runs a month from its
 * activation; `renews_at` is when the next payment is due) and, once paid, a PDF receipt.
 */
import PDFDocument from 'pdfkit';
import { findPlan } from '../plans/plans';

/** A paid plan's period: one month from activation. */
export const PLAN_PERIOD = 'month';

export interface ReceiptPayment {
  reference: string;
  plan: string;
  amount: { amount: number; currency: string };
  gateway_name: string;
  gateway_transaction_id: string | null;
  activated_at: string;
  period_start: string;
  renews_at: string;
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
    const plan = findPlan(payment.plan);
    doc.font('Helvetica-Bold').fontSize(20).text('Receipt');
    doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('#555').text(`Receipt number ${payment.reference}`);
    doc.moveDown(1.5).fillColor('#000').fontSize(11);
    const rows: [string, string][] = [
      ['Billed to', organizationName],
      ['Plan', `${plan?.name ?? payment.plan} (${plan?.credits ?? 0} credits)`],
      ['Period', `${payment.period_start.slice(0, 10)} to ${payment.renews_at.slice(0, 10)} (1 ${PLAN_PERIOD})`],
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
