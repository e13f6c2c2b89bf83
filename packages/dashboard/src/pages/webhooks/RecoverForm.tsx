import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';
import { recoverEvents } from './webhooks-api';

/** Sends again the events the endpoint missed since a time (events are kept 30 days). */
export function RecoverForm({ endpointId, onQueued }: { endpointId: string; onQueued: () => void }) {
  const [since, setSince] = useState('');
  const [includeSucceeded, setIncludeSucceeded] = useState(false);
  const mutation = useMutation({
    mutationFn: () => recoverEvents(endpointId, { since: new Date(since).toISOString(), include_succeeded: includeSucceeded }),
    onSuccess: onQueued,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (since) mutation.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Re-send missed events" className="card">
      <h2>Re-send missed events</h2>
      <FormError error={mutation.error} fields={['since', 'include_succeeded']} />
      <TextField label="Since" name="since" type="datetime-local" required value={since} error={mutation.error} onChange={(event) => setSince(event.target.value)} />
      <label className="checkbox">
        <input type="checkbox" checked={includeSucceeded} onChange={(event) => setIncludeSucceeded(event.target.checked)} />
        Also events it already acknowledged
      </label>
      <button type="submit" disabled={!since || mutation.isPending}>
        Re-send
      </button>
      {mutation.isSuccess && <p role="status">{mutation.data.queued} events queued.</p>}
    </form>
  );
}
