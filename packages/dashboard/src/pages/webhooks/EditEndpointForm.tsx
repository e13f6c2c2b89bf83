import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { MobilitySchemas, WebhookEndpoint } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { CheckboxGroup, TextField } from '../../ui/fields';
import { EVENT_TYPES, updateEndpoint } from './webhooks-api';

type EndpointUpdate = MobilitySchemas['WebhookEndpointUpdate'];

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((type) => b.includes(type));

/** What the form changes of `endpoint`: only the fields that differ (nothing when none does). */
function changesOf(endpoint: WebhookEndpoint, form: { url: string; description: string; events: string[]; enabled: boolean }): EndpointUpdate | null {
  const changes: Partial<EndpointUpdate> = {};
  if (form.url.trim() !== endpoint.url) changes.url = form.url.trim();
  if (!sameEvents(form.events, endpoint.events)) changes.events = form.events as EndpointUpdate['events'];
  const description = form.description.trim() || null;
  if (description !== (endpoint.description ?? null)) changes.description = description;
  if (form.enabled !== (endpoint.status === 'enabled')) changes.enabled = form.enabled;
  return Object.keys(changes).length ? (changes as EndpointUpdate) : null;
}

/** Changes an endpoint's URL, events, description and whether it is enabled (PATCH: only the fields that changed). */
export function EditEndpointForm({ endpoint, onSaved, onCancel }: { endpoint: WebhookEndpoint; onSaved: (endpoint: WebhookEndpoint) => void; onCancel: () => void }) {
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [events, setEvents] = useState<string[]>(endpoint.events);
  const [enabled, setEnabled] = useState(endpoint.status === 'enabled');
  const mutation = useMutation({
    mutationFn: async () => {
      const changes = changesOf(endpoint, { url, description, events, enabled });
      return changes ? updateEndpoint(endpoint.id, changes) : endpoint;
    },
    onSuccess: onSaved,
  });
  return (
    <CardForm dataMode="current" label="Edit the webhook endpoint" title="Edit the endpoint" error={mutation.error} fields={['url', 'events', 'description', 'enabled']} onSubmit={() => mutation.mutate()}>
      <TextField label="URL" name="url" type="url" required value={url} error={mutation.error} onChange={(event) => setUrl(event.target.value)} />
      <TextField label="Description (optional)" name="description" value={description} error={mutation.error} onChange={(event) => setDescription(event.target.value)} />
      <CheckboxGroup label="Events" name="events" options={EVENT_TYPES} value={events} onChange={setEvents} error={mutation.error} hint="At least one." />
      <div className="field">
        <label className="checkbox">
          <input type="checkbox" name="enabled" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> Enabled
        </label>
      </div>
      <div className="actions">
        <button type="submit" disabled={mutation.isPending}>
          Save changes
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </CardForm>
  );
}
