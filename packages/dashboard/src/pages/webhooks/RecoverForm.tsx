import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { CardForm } from '../../ui/CardForm';
import { TextField } from '../../ui/fields';
import { recoverEvents } from './webhooks-api';

/** Sends again the events the endpoint missed since a time (events are kept 30 days). */
export function RecoverForm({ endpointId, onQueued }: { endpointId: string; onQueued: () => void }) {
  const [since, setSince] = useState('');
  const [includeSucceeded, setIncludeSucceeded] = useState(false);
  const mutation = useMutation({
    mutationFn: () => recoverEvents(endpointId, { since: new Date(since).toISOString(), include_succeeded: includeSucceeded }),
    onSuccess: onQueued,
  });
  return (
    <CardForm dataMode="current" label="Re-send missed events" title="Re-send missed events" error={mutation.error} fields={['since', 'include_succeeded']} onSubmit={() => { if (since) mutation.mutate(); }}>
      <TextField label="Since" name="since" type="datetime-local" required value={since} error={mutation.error} onChange={(event) => setSince(event.target.value)} />
      <label className="checkbox">
        <input type="checkbox" checked={includeSucceeded} onChange={(event) => setIncludeSucceeded(event.target.checked)} />
        Also events it already acknowledged
      </label>
      <button type="submit" disabled={!since || mutation.isPending}>
        Re-send
      </button>
      {mutation.isSuccess && <p role="status">{mutation.data.queued} events queued.</p>}
    </CardForm>
  );
}
