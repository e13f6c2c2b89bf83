import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Payment, Plan } from '../../api/types';
import { SelectField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';
import { formatMoney } from '../../ui/format';
import { startCheckout } from './billing-api';

/** Starts a checkout with gateway A or B for the chosen plan. */
export function UpgradeForm({ plans, onStarted }: { plans: Plan[]; onStarted: (payment: Payment) => void }) {
  const [plan, setPlan] = useState(plans[0]?.id ?? '');
  const [gateway, setGateway] = useState<Payment['gateway']>('gateway-a');
  const mutation = useMutation({ mutationFn: () => startCheckout(plan, gateway), onSuccess: onStarted });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Upgrade plan" className="card">
      <h2>Upgrade</h2>
      <FormError error={mutation.error} fields={['plan', 'gateway']} />
      <SelectField label="Plan" name="plan" value={plan} error={mutation.error} onChange={(event) => setPlan(event.target.value)}
        options={plans.map((item) => ({ value: item.id, label: `${item.name} — ${formatMoney(item.price)}, ${item.credits} credits` }))} />
      <SelectField label="Pay with" name="gateway" value={gateway} error={mutation.error} onChange={(event) => setGateway(event.target.value as Payment['gateway'])}
        options={[{ value: 'gateway-a', label: 'Gateway A' }, { value: 'gateway-b', label: 'Gateway B' }]} />
      <button type="submit" disabled={!plan || mutation.isPending}>
        Start checkout
      </button>
    </form>
  );
}
