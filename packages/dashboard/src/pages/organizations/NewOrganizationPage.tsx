import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../auth/session';
import { createOrganization } from '../../auth/session-api';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';

export function NewOrganizationPage() {
  const { adopt, session } = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const mutation = useMutation({
    mutationFn: () => createOrganization(name),
    onSuccess: (next) => {
      adopt(next);
      navigate('/');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <main id="main" className="auth-page">
      {session?.organization && (
        <p>
          <Link to="/">← Back to {session.organization.name}</Link>
        </p>
      )}
      <h1>Create an organization</h1>
      {!session?.organization && <p>Your account belongs to no organization yet: create one (you become its owner) or ask an owner for an invitation.</p>}
      <form onSubmit={submit} noValidate aria-label="Create an organization">
        <FormError error={mutation.error} fields={['name']} />
        <TextField label="Organization name" name="name" required value={name} error={mutation.error} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={mutation.isPending}>
          Create organization
        </button>
      </form>
    </main>
  );
}
