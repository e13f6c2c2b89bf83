import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../api/types';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { listDeliveries, retryDelivery } from './webhooks-api';
import { humanLabel } from '../../ui/labels';

/** The endpoint's deliveries, newest first, each with its attempts; a failed one can be sent again. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({ queryKey: ['webhook-deliveries', endpointId], queryFn: () => listDeliveries(endpointId) });
  const retry = useMutation({
    mutationFn: (deliveryId: string) => retryDelivery(endpointId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpointId] }),
  });
  return (
    <>
      <h2>Delivery log</h2>
      <button type="button" onClick={() => deliveries.refetch()}>
        Refresh
      </button>
      <QueryState isLoading={deliveries.isLoading} error={deliveries.error} what="the delivery log" />
      <FormError error={retry.error} />
      {deliveries.data && (
        <div className="table-wrap">
          <table data-testid="delivery-log">
            <caption>Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.length === 0 && (
                <tr>
                  <td colSpan={6}>No deliveries yet.</td>
                </tr>
              )}
              {deliveries.data.data.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} onRetry={() => retry.mutate(delivery.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function DeliveryRow({ delivery, onRetry }: { delivery: WebhookDelivery; onRetry: () => void }) {
  return (
    <tr data-testid={`delivery-${delivery.id}`}>
      <td>
        {delivery.event_type}
        <div className="muted">{delivery.event_id}</div>
      </td>
      <td>{humanLabel(delivery.status)}</td>
      <td>
        {delivery.attempts}
        {delivery.attempt_log && delivery.attempt_log.length > 0 && (
          <details>
            <summary>Attempts</summary>
            <ol>
              {delivery.attempt_log.map((attempt) => (
                <li key={attempt.attempt}>
                  {attempt.status_code ?? 'no answer'}
                  {attempt.duration_ms !== null ? `, ${attempt.duration_ms} ms` : ''}
                  {attempt.error ? `: ${attempt.error}` : ''}
                  {attempt.created_at ? ` (${formatDate(attempt.created_at)})` : ''}
                </li>
              ))}
            </ol>
          </details>
        )}
      </td>
      <td>{delivery.last_status_code ?? delivery.last_error ?? '—'}</td>
      <td>{formatDate(delivery.created_at)}</td>
      <td>
        {delivery.status === 'failed' && (
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        )}
      </td>
    </tr>
  );
}
