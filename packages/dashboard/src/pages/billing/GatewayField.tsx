import type { Payment } from '../../api/types';
import { SelectField } from '../../ui/fields';
import type { PaymentGatewayOption } from './billing-api';

/** The first gateway that is set up (the form's starting choice). */
export function firstUsableGateway(gateways: PaymentGatewayOption[]): Payment['gateway'] {
  return gateways.find((gateway) => gateway.available)?.id ?? 'gateway-a';
}

/** "Pay with": both gateways by their configured display names; one that is not set up says so. */
export function GatewayField({ gateways, value, error, onChange }: { gateways: PaymentGatewayOption[]; value: Payment['gateway']; error: unknown; onChange: (gateway: Payment['gateway']) => void }) {
  return (
    <SelectField label="Pay with" name="gateway" value={value} error={error} onChange={(event) => onChange(event.target.value as Payment['gateway'])}
      options={(gateways.length ? gateways : [{ id: 'gateway-a' as const, name: 'Gateway A', available: true }]).map((item) => ({
        value: item.id,
        label: item.available ? item.name : `${item.name} (not set up)`,
      }))} />
  );
}
