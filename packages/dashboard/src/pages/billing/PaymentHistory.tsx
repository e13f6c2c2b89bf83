/** Billing history: each payment (a plan or a credit top-up), the plan's period and renewal date, and a PDF receipt once paid. */
import type { UseQueryResult } from '@tanstack/react-query';
import type { BillingPayment, Page } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { DataTable } from '../../ui/DataTable';
import { downloadReceipt } from './billing-api';

async function saveReceipt(reference: string): Promise<void> {
  const url = URL.createObjectURL(await downloadReceipt(reference));
  const link = Object.assign(document.createElement('a'), { href: url, download: `receipt-${reference}.pdf` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What a payment bought: its plan, or the credits of a top-up. */
function purchaseOf(payment: BillingPayment): string {
  return payment.kind === 'credit_top_up' ? `Credit top-up: ${payment.credits.toLocaleString()} credits` : `Plan ${humanLabel(payment.plan)}`;
}

export function PaymentHistory({ payments }: { payments: UseQueryResult<Page<BillingPayment>> }) {
  // The latest paid plan's period (a top-up has none, so it never moves the renewal date).
  const renewal = payments.data?.data.find((payment) => payment.renews_at);
  return (
    <>
      <h2>Payments</h2>
      {renewal && (
        <p data-testid="renewal">
          {humanLabel(renewal.plan)} is paid by the {renewal.period}: the period started {formatDate(renewal.activated_at)} and renews on{' '}
          <strong>{formatDate(renewal.renews_at)}</strong>.
        </p>
      )}
      <DataTable dataMode="live-only" query={payments} what="payments" caption="Payments, newest first" columns={['Started', 'Purchase', 'Amount', 'Status', 'Receipt']}
        rows={payments.data?.data} rowKey={(payment) => payment.reference} empty="No payments yet."
        renderRow={(payment) => (
          <tr data-testid={`payment-${payment.reference}`}>
            <td>{formatDate(payment.created_at)}</td>
            <td>{purchaseOf(payment)}</td>
            <td>
              {formatMoney(payment.amount)} <span className="muted">via {payment.gateway_name}</span>
            </td>
            <td>
              {humanLabel(payment.status)}
              {payment.invoice && <span className="muted"> · invoice {payment.invoice.number}</span>}
            </td>
            <td>
              {payment.status === 'succeeded' ? (
                <button type="button" onClick={() => void saveReceipt(payment.reference)}>
                  Receipt (PDF)
                </button>
              ) : (
                '—'
              )}
            </td>
          </tr>
        )} />
    </>
  );
}
