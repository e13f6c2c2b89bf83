/**
 * Credits and plan: balance, plan cards, an upgrade, a credit top-up, billing history, invoices, billing details and
 * the ledger. After a checkout starts (or the payment page sends the user back with `?reference=`), the payment is
 * polled until the payment webhook has settled it; then the balance, plan, ledger and invoices are read again.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useIsOwner } from '../../auth/session';
import type { CheckoutStarted, Plan } from '../../api/types';
import { DataTable } from '../../ui/DataTable';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { QueryState } from '../../ui/QueryState';
import { getBillingDetails, getCredits, listCreditPacks, listInvoices, listLedger, listPaymentGateways, listPayments, listPlans, paymentPage, pendingCheckout, rememberCheckout, type PendingCheckout } from './billing-api';
import { BillingDetailsForm } from './BillingDetailsForm';
import { CheckoutStatus, purchaseOfPayment } from './CheckoutStatus';
import { InvoiceList } from './InvoiceList';
import { PaymentHistory } from './PaymentHistory';
import { PlanCards } from './PlanCards';
import { TopUpForm } from './TopUpForm';
import { UpgradeForm } from './UpgradeForm';

const POLL_MS = 3000;

/**
 * The checkout to follow: the one this tab started, or the one the payment page sent the user back with
 * (`?reference=`; what it bought is read from billing history then).
 */
function checkoutToFollow(returnedWith: string | null): PendingCheckout | null {
  const stored = pendingCheckout();
  if (!returnedWith || stored?.reference === returnedWith) return stored;
  return /^pay_[0-9a-z]{1,60}$/.test(returnedWith) ? { reference: returnedWith, kind: '', purchase: '' } : stored;
}

export function BillingPage() {
  const queryClient = useQueryClient();
  const isOwner = useIsOwner();
  const [searchParams, setSearchParams] = useSearchParams();
  const returnedWith = searchParams.get('reference');
  const [pending, setPending] = useState<PendingCheckout | null>(() => checkoutToFollow(returnedWith));
  const [started, setStarted] = useState<CheckoutStarted | null>(null);
  const statusOf = (data: { data: { reference: string; status: string }[] } | undefined) => data?.data.find((payment) => payment.reference === pending?.reference)?.status ?? 'pending';
  const payments = useQuery({
    queryKey: ['payments'],
    queryFn: listPayments,
    refetchInterval: (query) => (pending && statusOf(query.state.data) === 'pending' ? POLL_MS : false),
  });
  const followed = pending ? payments.data?.data.find((payment) => payment.reference === pending.reference) : undefined;
  const credits = useQuery({ queryKey: ['credits'], queryFn: getCredits });
  const ledger = useQuery({ queryKey: ['ledger'], queryFn: listLedger });
  const plans = useQuery({ queryKey: ['plans'], queryFn: listPlans });
  const packs = useQuery({ queryKey: ['credit-packs'], queryFn: listCreditPacks });
  const gateways = useQuery({ queryKey: ['payment-gateways'], queryFn: listPaymentGateways });
  const invoices = useQuery({ queryKey: ['invoices'], queryFn: listInvoices });
  const billingDetails = useQuery({ queryKey: ['billing-details'], queryFn: getBillingDetails });

  // Once the webhook has settled the payment, the balance, plan and ledger have changed (or, if it failed, not).
  const outcome = followed?.status;
  useEffect(() => {
    if (outcome !== 'succeeded') return;
    void queryClient.invalidateQueries({ queryKey: ['credits'] });
    void queryClient.invalidateQueries({ queryKey: ['ledger'] });
    void queryClient.invalidateQueries({ queryKey: ['invoices'] });
  }, [outcome, queryClient]);

  const onStarted = (next: CheckoutStarted) => {
    const checkout: PendingCheckout = { reference: next.reference, kind: next.kind, purchase: purchaseOfPayment(next) };
    rememberCheckout(checkout);
    setPending(checkout);
    setStarted(next);
    // To the gateway's hosted payment page; it sends the user back to this page, which then waits for the webhook.
    paymentPage.open(next.checkout_url);
  };
  const dismiss = () => {
    rememberCheckout(null);
    if (returnedWith) setSearchParams({}, { replace: true });
    setPending(null);
    setStarted(null);
  };
  const currentPlan = credits.data?.plan;
  // Plans worth offering: paid ones other than the current plan.
  const offered = (plans.data?.data ?? []).filter((plan: Plan) => plan.id !== currentPlan && plan.price.amount > 0);
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
        <CheckoutStatus pending={pending} started={started} payment={followed} returned={returnedWith === pending.reference} onCheck={() => void payments.refetch()} onDismiss={dismiss} />
      )}
      <QueryState isLoading={plans.isLoading} error={plans.error} what="plans" />
      {plans.data && credits.data && (
        <>
          <h2>Plans</h2>
          <PlanCards plans={plans.data.data} currentPlan={credits.data.plan} />
          {offered.length > 0 && gateways.data && <UpgradeForm plans={offered} gateways={gateways.data.data} onStarted={onStarted} key={currentPlan} />}
        </>
      )}
      <QueryState isLoading={packs.isLoading} error={packs.error} what="credit packs" />
      {packs.data && gateways.data && packs.data.data.length > 0 &&
        (isOwner ? (
          <TopUpForm packs={packs.data.data} gateways={gateways.data.data} onStarted={onStarted} />
        ) : (
          <p className="hint" data-testid="top-up-owners-only">
            Owners of the organization can buy credit packs here without changing the plan.
          </p>
        ))}
      <PaymentHistory payments={payments} />
      <InvoiceList invoices={invoices} />
      <BillingDetailsForm details={billingDetails} isOwner={isOwner} />
      <h2>Ledger</h2>
      <DataTable dataMode="live-only" query={ledger} what="the credit ledger" caption="Credit movements, newest first" columns={['When', 'Change', 'Reason', 'Balance after']}
        rows={ledger.data?.data} rowKey={(entry) => entry.id} empty="No movements yet."
        renderRow={(entry) => (
          <tr>
            <td>{formatDate(entry.created_at)}</td>
            <td>{entry.amount > 0 ? `+${entry.amount}` : entry.amount}</td>
            <td>{entry.reason.replace(/_/g, ' ')}</td>
            <td>{entry.balance_after}</td>
          </tr>
        )} />
    </section>
  );
}
