/** /api-keys/certificate and /api-keys/mobility: the organization's keys of one service. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Navigate } from '../../mode/links';
import type { ApiKeyWithToken } from '../../api/types';
import { useIsOwner } from '../../auth/session';
import { DataTable } from '../../ui/DataTable';
import { SecretBox } from '../../ui/SecretBox';
import { listKeys, type KeyService } from './api-keys-api';
import { CreateKeyForm } from './CreateKeyForm';
import { KeyRow } from './KeyRow';
import { API_KEY_VALUES } from '../../ui/list-columns';

const TITLES: Record<KeyService, string> = { certificate: 'Certificate API keys', mobility: 'Mobility API keys' };

export function ApiKeysPage() {
  const { service } = useParams();
  if (service !== 'certificate' && service !== 'mobility') return <Navigate to="/api-keys/certificate" replace />;
  return <KeysOf service={service} key={service} />;
}

function KeysOf({ service }: { service: KeyService }) {
  const isOwner = useIsOwner();
  const queryClient = useQueryClient();
  const [fresh, setFresh] = useState<ApiKeyWithToken | null>(null);
  const keys = useQuery({ queryKey: ['api-keys', service], queryFn: () => listKeys(service) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-keys', service] });
  const showToken = (key: ApiKeyWithToken) => {
    setFresh(key);
    void refresh();
  };
  return (
    <section>
      <h1>{TITLES[service]}</h1>
      {fresh && <SecretBox label={`Token of ${fresh.name}`} value={fresh.token} testId="api-key-token" onDismiss={() => setFresh(null)} />}
      {isOwner ? <CreateKeyForm service={service} onCreated={showToken} /> : <p className="notice">Only owners can create, rotate, revoke and delete keys.</p>}
      <DataTable dataMode={service === 'certificate' ? 'current' : 'shared'} query={keys} what="API keys" caption="Keys" columns={['Name', 'Status', 'Scopes', 'Last used', 'Created', 'Actions']}
        rows={keys.data?.data} rowKey={(apiKey) => apiKey.id} values={API_KEY_VALUES} exportName={`${service}-api-keys`} empty="No keys yet."
        renderRow={(apiKey) => <KeyRow service={service} apiKey={apiKey} canManage={isOwner} onRotated={showToken} onChanged={refresh} />} />
    </section>
  );
}
