import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ApiKey, ApiKeyWithToken } from '../../api/types';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { FormError } from '../../ui/FormError';
import { Time } from '../../ui/Time';
import { humanLabel } from '../../ui/labels';
import { ModeBadge } from '../../ui/ModeBadge';
import { deleteKey, revokeKey, rotateKey, type KeyService } from './api-keys-api';

interface Props {
  service: KeyService;
  apiKey: ApiKey;
  canManage: boolean;
  onRotated: (key: ApiKeyWithToken) => void;
  onChanged: () => void;
}

/** What every certificate key may do: they carry no scopes (the partner API's `ck_…` routes). */
const CERTIFICATE_KEY_CAN = 'Read credits, verify certificates (every certificate key)';

/** One key: its state, last use, and (for owners) rotate with an optional overlap, revoke, delete. */
export function KeyRow({ service, apiKey, canManage, onRotated, onChanged }: Props) {
  const graceId = useId();
  const [grace, setGrace] = useState('0');
  const rotate = useMutation({ mutationFn: () => rotateKey(service, apiKey.id, Number(grace) || 0), onSuccess: onRotated });
  const revoke = useMutation({ mutationFn: () => revokeKey(service, apiKey.id), onSuccess: onChanged });
  const remove = useMutation({ mutationFn: () => deleteKey(service, apiKey.id), onSuccess: onChanged });
  const active = apiKey.status === 'active';
  return (
    <tr data-testid={`api-key-${apiKey.id}`}>
      <td>
        <strong>{apiKey.name}</strong>
        {/* The hint is the token's start and end with the ellipsis between them already (`ck_AbCd…wxyz`). */}
        <div className="muted">{apiKey.token_hint}</div>
      </td>
      <td>
        <span className={`badge badge-${apiKey.status}`}>{humanLabel(apiKey.status)}</span>
        <ModeBadge mode={apiKey.livemode === false || apiKey.mode === 'test' ? 'test' : 'live'} />
      </td>
      <td>{apiKey.scopes?.length ? apiKey.scopes.join(', ') : service === 'certificate' ? CERTIFICATE_KEY_CAN : '—'}</td>
      <td>
        <Time value={apiKey.last_used_at} empty="Never" />
      </td>
      <td>
        <Time value={apiKey.created_at} />
      </td>
      <td>
        {canManage ? (
          <div className="actions">
            {active && (
              <>
                <label htmlFor={graceId}>Overlap</label>
                <select id={graceId} value={grace} onChange={(event) => setGrace(event.target.value)}>
                  <option value="0">none: old token stops now</option>
                  <option value="3600">1 hour</option>
                  <option value="86400">24 hours</option>
                  <option value="604800">7 days</option>
                </select>
                <button type="button" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                  Rotate
                </button>
                <ConfirmButton className="danger" question={`Revoke ${apiKey.name}? Its token stops working at once.`} onConfirm={() => revoke.mutate()}>
                  Revoke
                </ConfirmButton>
              </>
            )}
            <ConfirmButton className="danger" question={`Delete ${apiKey.name}?`} onConfirm={() => remove.mutate()}>
              Delete
            </ConfirmButton>
            <FormError error={rotate.error ?? revoke.error ?? remove.error} />
          </div>
        ) : (
          <span className="muted">Owners only</span>
        )}
      </td>
    </tr>
  );
}
