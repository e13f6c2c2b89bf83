/** Webhook endpoints: list and register (the signing secret is shown once). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../mode/links';
import type { CreatedWebhookEndpoint } from '../../api/types';
import { Time } from '../../ui/Time';
import { DataTable } from '../../ui/DataTable';
import { SecretBox } from '../../ui/SecretBox';
import { CreateEndpointForm } from './CreateEndpointForm';
import { listEndpoints } from './webhooks-api';
import { humanLabel } from '../../ui/labels';
import { WEBHOOK_ENDPOINT_VALUES } from '../../ui/list-columns';

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const endpoints = useQuery({ queryKey: ['webhooks'], queryFn: listEndpoints });
  const onCreated = (endpoint: CreatedWebhookEndpoint) => {
    setCreated(endpoint);
    void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  };
  return (
    <section>
      <h1>Webhooks</h1>
      <p>
        <Link to="/webhooks/event-types">Event catalog</Link>: every event type, its schema and an example payload.
      </p>
      {created && (
        <>
          <SecretBox label={`Signing secret of ${created.url}`} value={created.secret} testId="webhook-secret" onDismiss={() => setCreated(null)} />
          <p>
            <Link to={`/webhooks/${encodeURIComponent(created.id)}`}>Open the new endpoint and its delivery log</Link>
          </p>
        </>
      )}
      <CreateEndpointForm onCreated={onCreated} />
      <DataTable dataMode="current" query={endpoints} what="webhook endpoints" caption="Endpoints" columns={['URL', 'Status', 'Events', 'Created']}
        rows={endpoints.data?.data} rowKey={(endpoint) => endpoint.id} values={WEBHOOK_ENDPOINT_VALUES} exportName="webhook-endpoints"
        empty="No endpoints yet. Register one above to receive signed events."
        renderRow={(endpoint) => (
          <tr data-testid={`webhook-${endpoint.id}`}>
            <td>
              <Link to={`/webhooks/${encodeURIComponent(endpoint.id)}`}>{endpoint.url}</Link>
            </td>
            <td>{humanLabel(endpoint.status)}</td>
            <td>{endpoint.events.length === 0 ? 'all' : endpoint.events.join(', ')}</td>
            <td>
              <Time value={endpoint.created_at} />
            </td>
          </tr>
        )} />
    </section>
  );
}
