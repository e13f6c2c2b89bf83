/** One endpoint: edit it, enable/disable, send a test, rotate the secret, delete, and its delivery log with retry. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Link, useNavigate } from '../../mode/links';
import { errorUnlessInOtherMode, OtherModeNotice, useOtherMode } from '../../mode/OtherModeNotice';
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '../../api/types';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { SecretBox } from '../../ui/SecretBox';
import { DeliveryLog } from './DeliveryLog';
import { EndpointStats } from './EndpointStats';
import { SendExampleForm } from './SendExampleForm';
import { EditEndpointForm } from './EditEndpointForm';
import { RecoverForm } from './RecoverForm';
import { deleteEndpoint, getEndpoint, rotateSecret, sendTest, updateEndpoint } from './webhooks-api';
import { humanLabel } from '../../ui/labels';
import { DailyChart } from '../overview/DailyChart';
import { getMobilitySummary, successRates } from '../overview/home-api';

export function EndpointPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<CreatedWebhookEndpoint | null>(null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const endpoint = useQuery({ queryKey: ['webhooks', id], queryFn: () => getEndpoint(id) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const toggle = useMutation({ mutationFn: (enabled: boolean) => updateEndpoint(id, { enabled }), onSuccess: refresh });
  const test = useMutation({ mutationFn: () => sendTest(id), onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', id] }) });
  const rotate = useMutation({ mutationFn: () => rotateSecret(id), onSuccess: (next) => { setSecret(next); void refresh(); } });
  const remove = useMutation({ mutationFn: () => deleteEndpoint(id), onSuccess: () => { void refresh(); navigate('/webhooks'); } });
  const onSaved = (next: WebhookEndpoint) => {
    queryClient.setQueryData(['webhooks', id], next);
    void refresh();
    setEditing(false);
    setSaved(true);
  };
  const stats = useQuery({ queryKey: ['webhook-deliveries', id, 'stats'], queryFn: () => getMobilitySummary(30, id) });
  const other = useOtherMode(endpoint.error, (mode) => getEndpoint(id, mode));
  const data = endpoint.data;
  return (
    <section>
      <p>
        <Link to="/webhooks">← All endpoints</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <QueryState isLoading={endpoint.isLoading || other.checking} error={errorUnlessInOtherMode(endpoint.error, other)} what="the endpoint" />
      <OtherModeNotice other={other} what="endpoint" />
      {secret && <SecretBox label="New signing secret" value={secret.secret} testId="webhook-secret" onDismiss={() => setSecret(null)} />}
      {data && (
        <>
          <dl className="details">
            <dt>URL</dt>
            <dd>{data.url}</dd>
            <dt>Status</dt>
            <dd data-testid="endpoint-status">
              {humanLabel(data.status)}
              {data.disabled_reason ? ` (${data.disabled_reason})` : ''}
            </dd>
            <dt>Events</dt>
            <dd>{data.events.join(', ')}</dd>
            {data.description && (
              <>
                <dt>Description</dt>
                <dd>{data.description}</dd>
              </>
            )}
            {data.previous_secret_expires_at && (
              <>
                <dt>Previous secret valid until</dt>
                <dd>{formatDate(data.previous_secret_expires_at)}</dd>
              </>
            )}
          </dl>
          <div className="actions">
            <button type="button" aria-expanded={editing} onClick={() => { setEditing(!editing); setSaved(false); }}>
              Edit
            </button>
            <button type="button" onClick={() => toggle.mutate(data.status !== 'enabled')}>
              {data.status === 'enabled' ? 'Disable' : 'Enable'}
            </button>
            <button type="button" onClick={() => test.mutate()} disabled={data.status !== 'enabled'}>
              Send test event
            </button>
            <ConfirmButton question="Rotate the signing secret? The old one keeps working for 24 hours." onConfirm={() => rotate.mutate()}>
              Rotate secret
            </ConfirmButton>
            <ConfirmButton className="danger" question="Delete this endpoint?" onConfirm={() => remove.mutate()}>
              Delete
            </ConfirmButton>
          </div>
          {editing && <EditEndpointForm key={data.updated_at ?? data.created_at} endpoint={data} onSaved={onSaved} onCancel={() => setEditing(false)} />}
          {saved && <p role="status">Endpoint saved.</p>}
          {test.isSuccess && <p role="status">Test event queued.</p>}
          <FormError error={toggle.error ?? test.error ?? rotate.error ?? remove.error} />
          <EndpointStats endpointId={id} />
          {data.status === 'enabled' && <SendExampleForm endpointId={id} eventTypes={data.events} />}
          <RecoverForm endpointId={id} onQueued={() => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', id] })} />
          {stats.data && (
            <DailyChart title="Success rate per day (last 30 days)" testId="chart-endpoint-success" data={successRates(stats.data)} unit="%"
              series={[{ key: 'success_rate', label: 'Answered 2xx', color: '#1b6e3a' }]} />
          )}
          <p>
            <Link to="/webhooks/event-types">Event catalog: every event type, its schema and an example payload</Link>
          </p>
          <DeliveryLog endpointId={id} />
        </>
      )}
    </section>
  );
}
