/** The endpoint's message log as in Svix: filters, each message's payload and every attempt's request and answer, replay. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { WebhookDelivery } from '../../api/types';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { Time } from '../../ui/Time';
import { fetchAllPages } from '../../ui/usePagedList';
import { QueryState } from '../../ui/QueryState';
import { humanLabel } from '../../ui/labels';
import { EVENT_TYPES, listDeliveries, replayDelivery, type MessageFilters } from './webhooks-api';

type Attempt = NonNullable<WebhookDelivery['attempt_log']>[number];

const MESSAGE_COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Actions'] as const;

/** Each column's value, for sorting, the filter and the CSV export (the actions have none). */
const MESSAGE_VALUES = [
  (d: WebhookDelivery) => `${d.event_type} ${d.event_id}`,
  (d: WebhookDelivery) => d.status,
  (d: WebhookDelivery) => d.attempts,
  (d: WebhookDelivery) => d.last_status_code ?? d.last_error ?? null,
  (d: WebhookDelivery) => d.created_at,
  undefined,
] as const;

/** `2026-05-01` (a date input) → the start of that local day, as the API's ISO instant. */
const dayStart = (value: string, plusDays = 0) => {
  const date = new Date(`${value}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
};

/**
 * `?message=whd_…&event_type=…&at=…` (a link from a trip's timeline): the log opens filtered to that event type and a
 * second either side of the message's creation, with the message's row open.
 */
function linkedMessage(params: URLSearchParams): { id?: string; filters: MessageFilters } {
  const id = params.get('message') ?? undefined;
  const at = Date.parse(params.get('at') ?? '');
  if (!id || Number.isNaN(at)) return { filters: {} };
  const around = (ms: number) => new Date(at + ms).toISOString();
  return { id, filters: { event_type: params.get('event_type') ?? undefined, created_after: around(-1000), created_before: around(1000) } };
}

export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [linked] = useState(() => linkedMessage(params));
  const [filters, setFilters] = useState<MessageFilters>(linked.filters);
  const deliveries = useQuery({ queryKey: ['webhook-deliveries', endpointId, filters], queryFn: () => listDeliveries(endpointId, filters) });
  const replay = useMutation({
    mutationFn: (deliveryId: string) => replayDelivery(endpointId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] }),
  });
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '') || undefined;
    const from = text('from');
    const to = text('to');
    setFilters({ event_type: text('event_type'), status: text('status'), created_after: from && dayStart(from), created_before: to && dayStart(to, 1) });
  };
  return (
    <>
      <h2>Messages</h2>
      <form aria-label="Filter messages" className="actions filters" onSubmit={apply}>
        <label>
          Event type{' '}
          <select name="event_type" defaultValue={linked.filters.event_type ?? ''}>
            <option value="">Any</option>
            {[...EVENT_TYPES, 'webhook.test'].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status{' '}
          <select name="status" defaultValue="">
            <option value="">Any</option>
            {['pending', 'succeeded', 'failed'].map((status) => (
              <option key={status} value={status}>
                {humanLabel(status)}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input type="date" name="from" />
        </label>
        <label>
          To <input type="date" name="to" />
        </label>
        <button type="submit">Filter</button>
        <button type="button" onClick={() => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] })}>
          Refresh
        </button>
      </form>
      {linked.id && filters === linked.filters && <p className="muted">Showing message {linked.id}, opened from a trip's timeline; filter to see the others.</p>}
      <QueryState isLoading={deliveries.isLoading} error={deliveries.error} what="the message log" />
      <FormError error={replay.error} />
      {replay.isSuccess && <p role="status">Message queued to be sent again.</p>}
      <DataTable dataMode="current" testId="delivery-log" caption="Messages, newest first" columns={MESSAGE_COLUMNS}
        rows={deliveries.data?.data} rowKey={(delivery) => delivery.id}
        values={MESSAGE_VALUES} exportName="webhook-messages" loadAllRows={() => fetchAllPages((cursor) => listDeliveries(endpointId, filters, cursor))}
        empty={Object.values(filters).some(Boolean) ? <>No messages match these filters. Change or clear them.</> : <>No messages yet. Send a test or example event above to see one here.</>}
        renderRow={(delivery) => <MessageRow delivery={delivery} linked={delivery.id === linked.id} onReplay={() => replay.mutate(delivery.id)} />} />
    </>
  );
}

/** The message's row, and when opened a full-width row below it: the payload and every attempt's request and answer. */
function MessageRow({ delivery, linked = false, onReplay }: { delivery: WebhookDelivery; linked?: boolean; onReplay: () => void }) {
  const [open, setOpen] = useState(linked);
  const panelId = useId();
  const row = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (linked) row.current?.scrollIntoView?.({ block: 'center' });
  }, [linked]);
  return (
    <>
      <tr data-testid={`delivery-${delivery.id}`} ref={row} aria-current={linked ? 'true' : undefined} className={linked ? 'linked' : undefined}>
        <td>
          {delivery.event_type}
          <div className="muted">{delivery.event_id}</div>
          <button type="button" className="disclosure" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
            Payload and attempts
          </button>
        </td>
        <td>{humanLabel(delivery.status)}</td>
        <td>{delivery.attempts}</td>
        <td>{delivery.last_status_code ?? delivery.last_error ?? '—'}</td>
        <td>
          <Time value={delivery.created_at} />
        </td>
        <td>
          {delivery.status !== 'pending' && (
            <button type="button" onClick={onReplay}>
              Replay
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="message" id={panelId} data-testid="message-details">
          <td colSpan={MESSAGE_COLUMNS.length}>
            <p className="label">Request payload</p>
            <pre className="code" tabIndex={0} aria-label="Request payload" data-testid="message-payload">
              {JSON.stringify(delivery.payload ?? null, null, 2)}
            </pre>
            {delivery.next_attempt_at && <p data-testid="next-retry">Next retry: {formatDate(delivery.next_attempt_at)}</p>}
            <ol className="attempts">
              {(delivery.attempt_log ?? []).map((attempt) => (
                <AttemptDetails key={attempt.attempt} attempt={attempt} />
              ))}
            </ol>
          </td>
        </tr>
      )}
    </>
  );
}

/** One labelled block of an attempt: its label above the text, or "not recorded". */
function Block({ label, text, testId }: { label: string; text: string | null | undefined; testId?: string }) {
  const id = useId();
  if (text === null || text === undefined) return <p className="muted">{label}: not recorded</p>;
  return (
    <>
      <p className="label" id={id}>
        {label}
      </p>
      <pre className="code" tabIndex={0} aria-labelledby={id} data-testid={testId}>
        {text}
      </pre>
    </>
  );
}

const headerLines = (headers: Record<string, string> | null | undefined) =>
  headers
    ? Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')
    : headers;

function AttemptDetails({ attempt }: { attempt: Attempt }) {
  return (
    <li data-testid={`attempt-${attempt.attempt}`}>
      <p>
        <strong>Attempt {attempt.attempt}</strong>: <span data-testid="attempt-status">{attempt.status_code ?? 'no answer'}</span>
        {attempt.duration_ms !== null ? `, ${attempt.duration_ms} ms` : ''}
        {attempt.created_at ? `, ${formatDate(attempt.created_at)}` : ''}
        {attempt.error ? ` (${attempt.error})` : ''}
      </p>
      <Block label="Request headers" text={headerLines(attempt.request_headers)} />
      <Block label="Response headers" text={headerLines(attempt.response_headers)} />
      {attempt.response_body_excerpt && <Block label="Response body" text={attempt.response_body_excerpt} testId="response-body" />}
    </li>
  );
}
