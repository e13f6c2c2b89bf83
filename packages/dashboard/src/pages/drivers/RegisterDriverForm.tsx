import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { NewDriver, RegisteredDriver } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { SelectField, TextField } from '../../ui/fields';
import { humanLabel } from '../../ui/labels';
import { registerDriver } from './drivers-api';

const EMPTY = { name: '', phone: '', kind: 'driver', tier: 'economy', make: '', model: '', plate: '', color: '' };
const FIELDS = ['name', 'phone', 'kind', 'tier', 'vehicle.make', 'vehicle.model', 'vehicle.plate', 'vehicle.color'];

export function RegisterDriverForm({ onRegistered }: { onRegistered: (driver: RegisteredDriver) => void }) {
  const [form, setForm] = useState(EMPTY);
  const mutation = useMutation({
    mutationFn: () =>
      registerDriver({
        name: form.name,
        phone: form.phone,
        kind: form.kind as NewDriver['kind'],
        tier: form.tier as NewDriver['tier'],
        vehicle: { make: form.make, model: form.model, plate: form.plate, color: form.color },
      }),
    onSuccess: (driver) => {
      setForm(EMPTY);
      onRegistered(driver);
    },
  });
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const error = mutation.error;
  return (
    <CardForm dataMode="shared" label="Register a driver" title="Register a driver" error={error} fields={FIELDS} onSubmit={() => mutation.mutate()}>
      <TextField label="Name" name="name" required value={form.name} error={error} onChange={set('name')} />
      <TextField label="Phone" name="phone" type="tel" required value={form.phone} error={error} onChange={set('phone')} />
      <SelectField label="Kind" name="kind" value={form.kind} error={error} onChange={set('kind')}
        options={[{ value: 'driver', label: 'Driver (rides)' }, { value: 'courier', label: 'Courier (deliveries)' }]} />
      <SelectField label="Tier" name="tier" value={form.tier} error={error} onChange={set('tier')}
        options={['moto', 'economy', 'comfort', 'xl'].map((value) => ({ value, label: humanLabel(value) }))} />
      <TextField label="Vehicle make" name="vehicle.make" required value={form.make} error={error} onChange={set('make')} />
      <TextField label="Vehicle model" name="vehicle.model" required value={form.model} error={error} onChange={set('model')} />
      <TextField label="Plate" name="vehicle.plate" required value={form.plate} error={error} onChange={set('plate')} />
      <TextField label="Color" name="vehicle.color" required value={form.color} error={error} onChange={set('color')} />
      <button type="submit" disabled={mutation.isPending}>
        Register driver
      </button>
    </CardForm>
  );
}
