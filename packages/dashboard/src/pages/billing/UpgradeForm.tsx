import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CheckoutStarted, Plan } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { SelectField } from '../../ui/fields';
import { formatMoney } from '../../ui/format';
import { startCheckout, type PaymentGatewayOption } from './billing-api';
import { firstUsableGateway, GatewayField } from './GatewayField';

/** Starts a checkout for one of the offered plans with a gateway (shown by its configured name). */
export function UpgradeForm({ plans, gateways, onStarted }: { plans: Plan[]; gateways: PaymentGatewayOption[]; onStarted: (payment: CheckoutStarted) => void }) {
  const [plan, setPlan] = useState(plans[0]?.id ?? '');
  const [gateway, setGateway] = useState(firstUsableGateway(gateways));
  const mutation = useMutation({ mutationFn: () => startCheckout(plan, gateway), onSuccess: onStarted });
  return (
    <CardForm label="Upgrade plan" title="Change plan" error={mutation.error} fields={['plan', 'gateway']} onSubmit={() => mutation.mutate()}>
      <SelectField label="Plan" name="plan" value={plan} error={mutation.error} onChange={(event) => setPlan(event.target.value)}
        options={plans.map((item) => ({ value: item.id, label: `${item.name} — ${formatMoney(item.price)}, ${item.credits} credits` }))} />
      <GatewayField gateways={gateways} value={gateway} error={mutation.error} onChange={setGateway} />
      <button type="submit" disabled={!plan || mutation.isPending}>
        Start checkout
      </button>
      <p className="hint">You pay on the gateway&apos;s own page and come back here; the new plan shows once the payment is confirmed.</p>
    </CardForm>
  );
}
