import type { BillingPayment, CheckoutStarted } from '../../api/types';
import { formatMoney } from '../../ui/format';
import type { PendingCheckout } from './billing-api';

/**
 * The checkout in progress: waiting for the payment webhook, then what it did (a plan activated, credits added) or
 * why the payment did not go through.
 */
export function CheckoutStatus({ pending, started, settled, onCheck, onDismiss }: {
  pending: PendingCheckout;
  /** The checkout's answer, while this page still has it (not after the trip to the payment page). */
  started: CheckoutStarted | null;
  /** The payment as billing history shows it, once it has left `pending`. */
  settled: BillingPayment | undefined;
  onCheck: () => void;
  onDismiss: () => void;
}) {
  const status = settled?.status ?? 'pending';
  return (
    <div className={status === 'succeeded' ? 'notice success' : 'notice'} role="status" data-testid="checkout-status">
      {status === 'succeeded' && (
        <p>
          Payment received:{' '}
          {pending.kind === 'credit_top_up' ? (
            <>
              <strong>{pending.purchase}</strong> added to the balance.
            </>
          ) : (
            <>
              <strong>{pending.purchase}</strong> is active.
            </>
          )}
        </p>
      )}
      {status === 'failed' && (
        <p>
          The payment for <strong>{pending.purchase}</strong> did not go through{settled?.failure_reason ? ` (${settled.failure_reason})` : ''}; your balance and
          plan are unchanged.
        </p>
      )}
      {status === 'pending' && (
        <p>
          Checkout <code data-testid="checkout-reference">{pending.reference}</code> for <strong>{pending.purchase}</strong>
          {started ? ` (${formatMoney(started.amount)} via ${started.gateway_name})` : ''} started. Complete the payment with the gateway; this
          page shows the result as soon as the payment is confirmed.
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
