/**
 * Credits and plan: balance, ledger, and an upgrade. After a checkout starts (or the payment page sends the user
 * back), the plan is polled until the payment webhook has activated it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CheckoutStarted, Plan } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { getCredits, listLedger, listPaymentGateways, listPlans, paymentPage, pendingCheckout, rememberCheckout, type PendingCheckout } from './billing-api';
import { PaymentHistory } from './PaymentHistory';
import { UpgradeForm } from './UpgradeForm';
import { humanLabel } from '../../ui/labels';

const POLL_MS = 3000;

export function BillingPage() {
  const [pending, setPending] = useState<PendingCheckout | null>(pendingCheckout);
  const [payment, setPayment] = useState<CheckoutStarted | null>(null);
  const credits = useQuery({
    queryKey: ['credits'],
    queryFn: getCredits,
    refetchInterval: (query) => (pending && query.state.data?.plan !== pending.plan ? POLL_MS : false),
  });
  const activated = Boolean(pending && credits.data && credits.data.plan === pending.plan && pending.previousPlan !== pending.plan);
  const ledger = useQuery({ queryKey: ['ledger', activated], queryFn: listLedger });
  const plans = useQuery({ queryKey: ['plans'], queryFn: listPlans });
  const gateways = useQuery({ queryKey: ['payment-gateways'], queryFn: listPaymentGateways });
  const gatewayName = (id: string) => gateways.data?.data.find((gateway) => gateway.id === id)?.name ?? humanLabel(id);
  const started = (next: CheckoutStarted) => {
    const checkout = { reference: next.reference, plan: next.plan, previousPlan: credits.data?.plan ?? null };
    rememberCheckout(checkout);
    setPending(checkout);
    setPayment(next);
    // To the gateway's hosted payment page; it sends the user back to this page, which then waits for the webhook.
    paymentPage.open(next.checkout_url);
  };
  const currentPlan = credits.data?.plan;
  // Plans worth offering: paid ones other than the current plan.
  const offered = (plans.data?.data ?? []).filter((plan: Plan) => plan.id !== currentPlan && plan.price.amount > 0);
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
              {payment ? ` (${formatMoney(payment.amount)} via ${gatewayName(payment.gateway)})` : ''} started.
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
      {plans.data && credits.data && (
        <>
          <h2>Plans</h2>
          <ul className="plan-cards" aria-label="Plans">
            {plans.data.data.map((plan) => (
              <li key={plan.id} className={plan.id === currentPlan ? 'card plan-card current' : 'card plan-card'} data-testid={`plan-${plan.id}`}
                aria-current={plan.id === currentPlan ? 'true' : undefined}>
                <h3>{plan.name}</h3>
                <p className="plan-price">{plan.price.amount > 0 ? formatMoney(plan.price) : 'Free'}</p>
                <p>{plan.credits} credits</p>
                {plan.id === currentPlan && <p className="badge badge-active">Current plan</p>}
              </li>
            ))}
          </ul>
          {offered.length > 0 && gateways.data && <UpgradeForm plans={offered} gateways={gateways.data.data} onStarted={started} key={currentPlan} />}
        </>
      )}
      <PaymentHistory refreshKey={String(activated)} />
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
