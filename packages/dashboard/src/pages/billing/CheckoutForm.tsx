import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { CheckoutStarted, Payment } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { SelectField } from '../../ui/fields';
import type { PaymentGatewayOption } from './billing-api';
import { firstUsableGateway, GatewayField } from './GatewayField';

/** What a checkout form sells: the choices of one select (a plan, a credit pack) and how to start paying for one. */
export interface CheckoutOffer {
  /** The select's label and the API's name for the chosen item. */
  label: string;
  name: string;
  options: { value: string; label: string }[];
  start: (item: string, gateway: Payment['gateway']) => Promise<CheckoutStarted>;
}

/** Picks one offered item and a gateway, then starts the hosted checkout (the first choice of each is preselected). */
export function CheckoutForm({ formLabel, title, offer, gateways, submitLabel, hint, onStarted }: {
  formLabel: string;
  title: string;
  offer: CheckoutOffer;
  gateways: PaymentGatewayOption[];
  submitLabel: string;
  hint: ReactNode;
  onStarted: (payment: CheckoutStarted) => void;
}) {
  const [item, setItem] = useState(offer.options[0]?.value ?? '');
  const [gateway, setGateway] = useState(firstUsableGateway(gateways));
  const mutation = useMutation({ mutationFn: () => offer.start(item, gateway), onSuccess: onStarted });
  return (
    <CardForm dataMode="live-only" label={formLabel} title={title} error={mutation.error} fields={[offer.name, 'gateway']} onSubmit={() => mutation.mutate()}>
      <SelectField label={offer.label} name={offer.name} value={item} error={mutation.error} onChange={(event) => setItem(event.target.value)} options={offer.options} />
      <GatewayField gateways={gateways} value={gateway} error={mutation.error} onChange={setGateway} />
      <button type="submit" disabled={!item || mutation.isPending}>
        {submitLabel}
      </button>
      <p className="hint">{hint}</p>
    </CardForm>
  );
}
