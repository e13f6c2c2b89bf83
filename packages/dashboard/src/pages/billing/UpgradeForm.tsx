import type { CheckoutStarted, Plan } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { startCheckout, type PaymentGatewayOption } from './billing-api';
import { CheckoutForm } from './CheckoutForm';

/** Starts a checkout for one of the offered plans with a gateway (shown by its configured name). */
export function UpgradeForm({ plans, gateways, onStarted }: { plans: Plan[]; gateways: PaymentGatewayOption[]; onStarted: (payment: CheckoutStarted) => void }) {
  const offer = {
    label: 'Plan',
    name: 'plan',
    options: plans.map((item) => ({ value: item.id, label: `${item.name} — ${formatMoney(item.price)}, ${item.credits} credits` })),
    start: startCheckout,
  };
  return (
    <CheckoutForm formLabel="Upgrade plan" title="Change plan" offer={offer} gateways={gateways} submitLabel="Start checkout" onStarted={onStarted}
      hint="You pay on the gateway's own page and come back here; the new plan shows once the payment is confirmed." />
  );
}
