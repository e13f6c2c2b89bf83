import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiKeyWithToken } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { CheckboxGroup, SelectField, TextField } from '../../ui/fields';
import { createKey, MOBILITY_SCOPES, type KeyService, type NewKey } from './api-keys-api';

/** Mobility keys carry scopes and a live or test mode; certificate keys only a name. */
export function CreateKeyForm({ service, onCreated }: { service: KeyService; onCreated: (key: ApiKeyWithToken) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [mode, setMode] = useState<'live' | 'test'>('test');
  const mutation = useMutation({
    mutationFn: () => {
      const body: NewKey = service === 'mobility' ? { name, scopes, mode } : { name };
      return createKey(service, body);
    },
    onSuccess: (key) => {
      setName('');
      setScopes([]);
      onCreated(key);
    },
  });
  return (
    <CardForm dataMode={service === 'certificate' ? 'current' : 'shared'} label="Create an API key" title="Create a key" error={mutation.error} fields={['name', 'scopes', 'mode']} onSubmit={() => mutation.mutate()}>
      <TextField label="Key name" name="name" required value={name} error={mutation.error} onChange={(event) => setName(event.target.value)} />
      {service === 'mobility' && (
        <>
          <CheckboxGroup label="Scopes" name="scopes" options={MOBILITY_SCOPES} value={scopes} onChange={setScopes} error={mutation.error}
            hint="What the key may do; at least one." />
          <SelectField label="Mode" name="mode" value={mode} error={mutation.error} onChange={(event) => setMode(event.target.value as 'live' | 'test')}
            options={[{ value: 'test', label: 'Test' }, { value: 'live', label: 'Live' }]} />
        </>
      )}
      <button type="submit" disabled={mutation.isPending}>
        Create key
      </button>
    </CardForm>
  );
}
