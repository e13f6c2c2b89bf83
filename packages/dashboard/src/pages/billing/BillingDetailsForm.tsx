/**
 * The organization's billing details, the buyer's side of its invoices: owners set them (the next invoices use them;
 * issued ones keep what they said), members read them.
 */
import { useMutation, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { CardForm } from '../../ui/CardForm';
import { TextField } from '../../ui/fields';
import { fieldMessage } from '../../ui/problems';
import { saveBillingDetails, type BillingDetails } from './billing-api';

export function BillingDetailsForm({ details, isOwner }: { details: UseQueryResult<BillingDetails>; isOwner: boolean }) {
  if (!details.data) return null;
  if (!isOwner) {
    const saved = details.data;
    return (
      <section className="card" aria-labelledby="billing-details-heading" data-testid="billing-details">
        <h2 id="billing-details-heading">Billing details</h2>
        {saved.legal_name ? (
          <address className="billing-address">
            <strong>{saved.legal_name}</strong>
            {`\n${saved.address ?? ''}${saved.tax_id ? `\nTax ID: ${saved.tax_id}` : ''}\n${saved.email ?? ''}`}
          </address>
        ) : (
          <p className="hint">None yet: invoices name the organization only. Owners set them here.</p>
        )}
      </section>
    );
  }
  return <OwnerForm saved={details.data} />;
}

function OwnerForm({ saved }: { saved: BillingDetails }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ legal_name: saved.legal_name ?? '', address: saved.address ?? '', tax_id: saved.tax_id ?? '', email: saved.email ?? '' });
  const mutation = useMutation({
    mutationFn: () => saveBillingDetails({ ...form, tax_id: form.tax_id.trim() ? form.tax_id : null }),
    onSuccess: (next) => queryClient.setQueryData(['billing-details'], next),
  });
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [name]: event.target.value }));
    mutation.reset();
  };
  const addressId = useId();
  const addressError = fieldMessage(mutation.error, 'address');
  return (
    <CardForm dataMode="live-only" label="Billing details" title="Billing details" error={mutation.error} fields={['legal_name', 'address', 'tax_id', 'email']} onSubmit={() => mutation.mutate()}>
      <p className="hint">Who your invoices are made out to. Invoices issued from now on use these; earlier ones keep what they said.</p>
      <TextField label="Legal name" name="legal_name" value={form.legal_name} error={mutation.error} onChange={set('legal_name')} autoComplete="organization" />
      <div className="field">
        <label htmlFor={addressId}>Address</label>
        <textarea id={addressId} className="billing-address-input" name="address" rows={3} value={form.address} onChange={set('address')} autoComplete="street-address"
          aria-invalid={addressError ? true : undefined} aria-describedby={addressError ? `${addressId}-error` : undefined} />
        {addressError && (
          <small id={`${addressId}-error`} className="field-error" data-testid="error-address">
            {addressError}
          </small>
        )}
      </div>
      <TextField label="Tax ID (optional)" name="tax_id" value={form.tax_id} error={mutation.error} onChange={set('tax_id')} />
      <TextField label="Billing email" name="email" type="email" value={form.email} error={mutation.error} onChange={set('email')} autoComplete="email" />
      <button type="submit" disabled={mutation.isPending}>
        Save billing details
      </button>
      {mutation.isSuccess && (
        <p role="status" data-testid="billing-details-saved">
          Billing details saved.
        </p>
      )}
    </CardForm>
  );
}
