/** Create an event pass program: name, budget, dates, area (venue and radius), rides per pass. */
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { CardForm } from '../../ui/CardForm';
import { TextField } from '../../ui/fields';
import { humanLabel } from '../../ui/labels';
import { createProgram, type NewProgram, type Program } from './event-passes-api';

const TIERS = ['moto', 'economy', 'comfort', 'xl'] as const;
const minor = (value: FormDataEntryValue | null) => Math.round(Number(value) * 100);

export function CreateProgramForm({ onCreated }: { onCreated: (program: Program) => void }) {
  const create = useMutation({ mutationFn: createProgram, onSuccess: onCreated });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const form = new FormData(event.currentTarget);
    const when = (name: string) => (form.get(name) ? new Date(String(form.get(name))).toISOString() : '');
    const body = {
      name: String(form.get('name') ?? ''),
      venue: { lat: Number(form.get('lat')), lng: Number(form.get('lng')), radius_m: Number(form.get('radius_m')), address: String(form.get('address') ?? '') || undefined },
      valid_from: when('valid_from'),
      valid_until: when('valid_until'),
      applies_to: String(form.get('applies_to')),
      tiers: form.getAll('tiers').map(String),
      max_fare_per_ride: minor(form.get('max_fare_per_ride')),
      budget: minor(form.get('budget')),
      rides_per_pass: Number(form.get('rides_per_pass')),
    } as NewProgram;
    create.mutate(body);
  };
  const error = create.error;
  return (
    <CardForm dataMode="live-only" liveOnly="Event passes" label="Create a program" title="New program" error={error} onSubmit={submit}>
      <div className="grid-2">
        <div>
          <TextField label="Name" name="name" error={error} required />
          <TextField label="Budget (NGN)" name="budget" type="number" min="1" step="0.01" error={error} required />
          <TextField label="Most covered per ride (NGN)" name="max_fare_per_ride" type="number" min="1" step="0.01" error={error} required />
          <TextField label="Rides per pass" name="rides_per_pass" type="number" min="1" max="100" defaultValue="2" error={error} required />
          <TextField label="Valid from" name="valid_from" type="datetime-local" error={error} required />
          <TextField label="Valid until" name="valid_until" type="datetime-local" error={error} required />
        </div>
        <div>
          <TextField label="Venue latitude" name="lat" type="number" step="any" error={error} required />
          <TextField label="Venue longitude" name="lng" type="number" step="any" error={error} required />
          <TextField label="Radius (metres)" name="radius_m" type="number" min="50" max="50000" defaultValue="500" error={error} required />
          <TextField label="Venue address" name="address" error={error} />
          <div className="field">
            <label htmlFor="applies_to">Rides covered</label>
            <select id="applies_to" name="applies_to" defaultValue="both">
              <option value="both">To or from the venue</option>
              <option value="to_venue">To the venue</option>
              <option value="from_venue">From the venue</option>
            </select>
          </div>
          <fieldset className="field">
            <legend>Tiers</legend>
            <div className="checkboxes">
              {TIERS.map((tier) => (
                <label key={tier} className="checkbox">
                  <input type="checkbox" name="tiers" value={tier} defaultChecked={tier === 'economy' || tier === 'comfort'} /> {humanLabel(tier)}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
      </div>
      <button type="submit" disabled={create.isPending}>
        Create program
      </button>
    </CardForm>
  );
}
