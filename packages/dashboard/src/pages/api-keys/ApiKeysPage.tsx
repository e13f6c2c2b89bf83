/** /api-keys/certificate and /api-keys/mobility: the organization's keys of one service. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import type { ApiKeyWithToken } from '../../api/types';
import { useIsOwner } from '../../auth/session';
import { QueryState } from '../../ui/QueryState';
import { SecretBox } from '../../ui/SecretBox';
import { listKeys, type KeyService } from './api-keys-api';
import { CreateKeyForm } from './CreateKeyForm';
import { KeyRow } from './KeyRow';

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
      <QueryState isLoading={keys.isLoading} error={keys.error} what="API keys" />
      {keys.data && (
        <div className="table-wrap">
          <table>
            <caption>Keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Scopes</th>
                <th scope="col">Last used</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.length === 0 && (
                <tr>
                  <td colSpan={6}>No keys yet.</td>
                </tr>
              )}
              {keys.data.data.map((apiKey) => (
                <KeyRow key={apiKey.id} service={service} apiKey={apiKey} canManage={isOwner} onRotated={showToken} onChanged={refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
