/**
 * "Send example event" as in Svix: one event type's catalog example (built from the API description, the same one the
 * event catalog shows) sent to one endpoint, marked `"example": true`, through the outbox and the worker like any event.
 * On an endpoint's page the type is chosen; in the event catalog the endpoint is.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookEventType } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { SelectField } from '../../ui/fields';
import { QueryState } from '../../ui/QueryState';
import { catalogOf, loadDescription } from './event-catalog';
import { EVENT_TYPES, LOCATION_EVENT_TYPES, listEndpoints, sendExample } from './webhooks-api';

/** The example's `data` for a type, from the description (`{}` if the type has no schema there). */
function exampleData(description: Awaited<ReturnType<typeof loadDescription>>, type: string): Record<string, unknown> {
  const [entry] = catalogOf(description, [type], LOCATION_EVENT_TYPES);
  const data = (entry?.example as { data?: unknown } | undefined)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

export function SendExampleForm({ endpointId, eventTypes = EVENT_TYPES, eventType }: {
  /** Sends to this endpoint (an endpoint's page); without it the form lists the endpoints to choose from. */
  endpointId?: string;
  /** The types to choose from (an endpoint's subscriptions). */
  eventTypes?: readonly string[];
  /** Sends this type (a catalog entry); without it the form lists `eventTypes`. */
  eventType?: string;
}) {
  const queryClient = useQueryClient();
  const [type, setType] = useState(eventType ?? eventTypes[0] ?? '');
  const [target, setTarget] = useState(endpointId ?? '');
  const description = useQuery({ queryKey: ['openapi'], queryFn: loadDescription, staleTime: Infinity });
  const endpoints = useQuery({ queryKey: ['webhooks'], queryFn: listEndpoints, enabled: endpointId === undefined });
  const enabled = (endpoints.data?.data ?? []).filter((endpoint) => endpoint.status === 'enabled');
  const chosen = endpointId ?? (target || enabled[0]?.id || '');
  const send = useMutation({
    mutationFn: async () => sendExample(chosen, { event_type: type as WebhookEventType, data: exampleData(description.data ?? (await loadDescription()), type) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', chosen] }),
  });
  const title = eventType ? `Send an example ${eventType} event` : 'Send an example event';
  if (endpointId === undefined && !endpoints.data) return <QueryState isLoading={endpoints.isLoading} error={endpoints.error} what="the endpoints" />;
  if (endpointId === undefined && enabled.length === 0) {
    return <p className="muted">Register an enabled endpoint on the Webhooks page to send it an example of this event.</p>;
  }
  return (
    <CardForm dataMode="current" label={title} title={title} error={send.error} fields={['event_type', 'data']} onSubmit={() => { if (chosen && type) send.mutate(); }}>
      {eventType === undefined && (
        <SelectField label="Event type" name="event_type" value={type} onChange={(event) => setType(event.target.value)} options={eventTypes.map((value) => ({ value, label: value }))} />
      )}
      {endpointId === undefined && (
        <SelectField label="Endpoint" name="endpoint" value={chosen} onChange={(event) => setTarget(event.target.value)}
          options={enabled.map((endpoint) => ({ value: endpoint.id, label: endpoint.description ? `${endpoint.description} (${endpoint.url})` : endpoint.url }))} />
      )}
      <p className="hint">The example payload of the event catalog, marked <code>&quot;example&quot;: true</code>, signed and delivered like a real event.</p>
      <button type="submit" disabled={!chosen || !type || send.isPending}>
        Send example event
      </button>
      {send.isSuccess && <p role="status">Example {send.data.event_type} event queued ({send.data.event_id}).</p>}
    </CardForm>
  );
}
