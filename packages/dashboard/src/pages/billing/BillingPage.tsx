/**
 * Credits and plan: balance, ledger, and an upgrade. After a checkout starts (or the payment page sends the user
 * back), the plan is polled until the payment webhook has activated it.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Payment } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { getCredits, listLedger, listPlans, pendingCheckout, rememberCheckout, type PendingCheckout } from './billing-api';
import { UpgradeForm } from './UpgradeForm';
import { humanLabel } from '../../ui/labels';

const POLL_MS = 3000;

export function BillingPage() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingCheckout | null>(pendingCheckout);
  const [payment, setPayment] = useState<Payment | null>(null);
  const credits = useQuery({
    queryKey: ['credits'],
    queryFn: getCredits,
    refetchInterval: (query) => (pending && query.state.data?.plan !== pending.plan ? POLL_MS : false),
  });
  const activated = Boolean(pending && credits.data && credits.data.plan === pending.plan && pending.previousPlan !== pending.plan);
  const ledger = useQuery({ queryKey: ['ledger', activated], queryFn: listLedger });
  const plans = useQuery({ queryKey: ['plans'], queryFn: listPlans });
  const started = (next: Payment) => {
    const checkout = { reference: next.reference, plan: next.plan, previousPlan: credits.data?.plan ?? null };
    rememberCheckout(checkout);
    setPending(checkout);
    setPayment(next);
    void queryClient.invalidateQueries({ queryKey: ['credits'] });
  };
  const dismiss = () => {
    rememberCheckout(null);
    setPending(null);
    setPayment(null);
  };
  return (
    <section>
      <h1>Credits &amp; plan</h1>
      <QueryState isLoading={credits.isLoading} error={credits.error} what="the credit balance" />
      {credits.data && (
        <dl className="stats" data-testid="credits">
          <div>
            <dt>Balance</dt>
            <dd data-testid="credit-balance">{credits.data.balance}</dd>
          </div>
          <div>
            <dt>Plan</dt>
            <dd data-testid="current-plan">{humanLabel(credits.data.plan)}</dd>
          </div>
        </dl>
      )}
      {pending && (
        <div className={activated ? 'notice success' : 'notice'} role="status" data-testid="checkout-status">
          {activated ? (
            <p>
              Payment received: plan <strong>{humanLabel(pending.plan)}</strong> is active.
            </p>
          ) : (
            <p>
              Checkout <code data-testid="checkout-reference">{pending.reference}</code> for plan <strong>{humanLabel(pending.plan)}</strong>
              {payment ? ` (${formatMoney(payment.amount)} via ${payment.gateway === 'gateway-a' ? 'Gateway A' : 'Gateway B'})` : ''} started.
              Complete the payment with the gateway; this page shows the new plan as soon as the payment is confirmed.
            </p>
          )}
          <div className="actions">
            {!activated && (
              <button type="button" onClick={() => credits.refetch()}>
                Check now
              </button>
            )}
            <button type="button" onClick={dismiss}>
              {activated ? 'Close' : 'Stop waiting'}
            </button>
          </div>
        </div>
      )}
      <QueryState isLoading={plans.isLoading} error={plans.error} what="plans" />
      {plans.data && <UpgradeForm plans={plans.data.data} onStarted={started} />}
      <h2>Ledger</h2>
      <QueryState isLoading={ledger.isLoading} error={ledger.error} what="the credit ledger" />
      {ledger.data && (
        <div className="table-wrap">
          <table>
            <caption>Credit movements, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Change</th>
                <th scope="col">Reason</th>
                <th scope="col">Balance after</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data.data.length === 0 && (
                <tr>
                  <td colSpan={4}>No movements yet.</td>
                </tr>
              )}
              {ledger.data.data.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDate(entry.created_at)}</td>
                  <td>{entry.amount > 0 ? `+${entry.amount}` : entry.amount}</td>
                  <td>{entry.reason.replace(/_/g, ' ')}</td>
                  <td>{entry.balance_after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
