import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CreatedWebhookEndpoint, WebhookEventType } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { CheckboxGroup, TextField } from '../../ui/fields';
import { createEndpoint, EVENT_TYPES } from './webhooks-api';

/** Registers an endpoint; no event chosen means every event but the opt-in location events. */
export function CreateEndpointForm({ onCreated }: { onCreated: (endpoint: CreatedWebhookEndpoint) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const mutation = useMutation({
    mutationFn: () =>
      createEndpoint({ url, ...(events.length ? { events: events as WebhookEventType[] } : {}), ...(description ? { description } : {}) }),
    onSuccess: (endpoint) => {
      setUrl('');
      setDescription('');
      setEvents([]);
      onCreated(endpoint);
    },
  });
  return (
    <CardForm dataMode="current" label="Register a webhook endpoint" title="Register an endpoint" error={mutation.error} fields={['url', 'events', 'description']} onSubmit={() => mutation.mutate()}>
      <TextField label="URL" name="url" type="url" required placeholder="https://example.com/webhooks" value={url} error={mutation.error}
        onChange={(event) => setUrl(event.target.value)} />
      <TextField label="Description (optional)" name="description" value={description} error={mutation.error} onChange={(event) => setDescription(event.target.value)} />
      <CheckboxGroup label="Events" name="events" options={EVENT_TYPES} value={events} onChange={setEvents} error={mutation.error}
        hint="None chosen: every event except the opt-in location events." />
      <button type="submit" disabled={mutation.isPending}>
        Register endpoint
      </button>
    </CardForm>
  );
}
