import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CheckoutStarted, CreditPack } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { SelectField } from '../../ui/fields';
import { formatMoney } from '../../ui/format';
import { startTopUp, type PaymentGatewayOption } from './billing-api';
import { firstUsableGateway, GatewayField } from './GatewayField';

/** Buys a credit pack (owners) through the same hosted checkout as a plan; the plan and its period stay as they are. */
export function TopUpForm({ packs, gateways, onStarted }: { packs: CreditPack[]; gateways: PaymentGatewayOption[]; onStarted: (payment: CheckoutStarted) => void }) {
  const [pack, setPack] = useState(packs[0]?.id ?? '');
  const [gateway, setGateway] = useState(firstUsableGateway(gateways));
  const mutation = useMutation({ mutationFn: () => startTopUp(pack, gateway), onSuccess: onStarted });
  return (
    <CardForm label="Buy credits" title="Buy credits" error={mutation.error} fields={['pack', 'gateway']} onSubmit={() => mutation.mutate()}>
      <SelectField label="Credit pack" name="pack" value={pack} error={mutation.error} onChange={(event) => setPack(event.target.value)}
        options={packs.map((item) => ({ value: item.id, label: `${item.name} — ${formatMoney(item.price)}` }))} />
      <GatewayField gateways={gateways} value={gateway} error={mutation.error} onChange={setGateway} />
      <button type="submit" disabled={!pack || mutation.isPending}>
        Buy credits
      </button>
      <p className="hint">A top-up adds credits to the balance once the payment is confirmed; your plan and its renewal date stay as they are.</p>
    </CardForm>
  );
}
