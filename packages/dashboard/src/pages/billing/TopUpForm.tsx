import type { CheckoutStarted, CreditPack } from '../../api/types';
import { formatMoney } from '../../ui/format';
import { startTopUp, type PaymentGatewayOption } from './billing-api';
import { CheckoutForm } from './CheckoutForm';

/** Buys a credit pack (owners) through the same hosted checkout as a plan; the plan and its period stay as they are. */
export function TopUpForm({ packs, gateways, onStarted }: { packs: CreditPack[]; gateways: PaymentGatewayOption[]; onStarted: (payment: CheckoutStarted) => void }) {
  const offer = { label: 'Credit pack', name: 'pack', options: packs.map((item) => ({ value: item.id, label: `${item.name} — ${formatMoney(item.price)}` })), start: startTopUp };
  return (
    <CheckoutForm formLabel="Buy credits" title="Buy credits" offer={offer} gateways={gateways} submitLabel="Buy credits" onStarted={onStarted}
      hint="A top-up adds credits to the balance once the payment is confirmed; your plan and its renewal date stay as they are." />
  );
}
