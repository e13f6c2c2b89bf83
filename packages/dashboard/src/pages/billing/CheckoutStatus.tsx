import type { BillingPayment, CheckoutStarted } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import type { PendingCheckout } from './billing-api';

/** What a payment buys, for people: "plan Growth" or "500 credits". */
export function purchaseOfPayment(payment: Pick<BillingPayment, 'kind' | 'credits' | 'plan'>): string {
  return payment.kind === 'credit_top_up' ? `${payment.credits.toLocaleString()} credits` : `plan ${humanLabel(payment.plan)}`;
}

/**
 * The checkout in progress: before the payment page, "complete the payment"; back from it, waiting for the gateway to
 * confirm; then what the payment did (a plan activated, credits added) with its invoice number, or why it did not go
 * through.
 */
export function CheckoutStatus({ pending, started, payment, returned, onCheck, onDismiss }: {
  pending: PendingCheckout;
  /** The checkout's answer, while this page still has it (not after the trip to the payment page). */
  started: CheckoutStarted | null;
  /** The payment as billing history shows it, once it is listed. */
  payment: BillingPayment | undefined;
  /** The payment page sent the user back here (`?reference=` names this checkout). */
  returned: boolean;
  onCheck: () => void;
  onDismiss: () => void;
}) {
  const status = payment?.status ?? 'pending';
  const purchase = pending.purchase || (payment ? purchaseOfPayment(payment) : 'your purchase');
  const gateway = started?.gateway_name ?? payment?.gateway_name;
  return (
    <div className={status === 'succeeded' ? 'notice success' : 'notice'} role="status" data-testid="checkout-status">
      {status === 'succeeded' && (
        <p>
          Payment received{payment?.invoice ? <> — invoice <strong data-testid="checkout-invoice">{payment.invoice.number}</strong></> : ''}:{' '}
          {(pending.kind || payment?.kind) === 'credit_top_up' ? (
            <>
              <strong>{purchase}</strong> added to the balance.
            </>
          ) : (
            <>
              <strong>{purchase}</strong> is active.
            </>
          )}
          {payment?.invoice && ' The invoice is in the list below.'}
        </p>
      )}
      {status === 'failed' && (
        <p>
          The payment for <strong>{purchase}</strong> did not go through{payment?.failure_reason ? ` (${payment.failure_reason})` : ''}; your balance and
          plan are unchanged.
        </p>
      )}
      {status === 'pending' && !returned && (
        <p>
          Checkout <code data-testid="checkout-reference">{pending.reference}</code> for <strong>{purchase}</strong>
          {started ? ` (${formatMoney(started.amount)} via ${started.gateway_name})` : ''} started. Complete the payment with the gateway; this
          page shows the result as soon as the payment is confirmed.
        </p>
      )}
      {status === 'pending' && returned && (
        <p>
          Back from the payment page: checkout <code data-testid="checkout-reference">{pending.reference}</code> for <strong>{purchase}</strong>. Waiting for{' '}
          {gateway ?? 'the gateway'} to confirm the payment; this page updates by itself.
        </p>
      )}
      <div className="actions">
        {status === 'pending' && (
          <button type="button" onClick={onCheck}>
            Check now
          </button>
        )}
        <button type="button" onClick={onDismiss}>
          {status === 'pending' ? 'Stop waiting' : 'Close'}
        </button>
      </div>
    </div>
  );
}
