import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ASSIGNABLE_ROLES, LEAST_PRIVILEGED_ROLE, type Invitation, type Role } from '../../api/accounts';
import { CardForm } from '../../ui/CardForm';
import { SelectField, TextField } from '../../ui/fields';
import { createInvitation } from './members-api';

/** Invites at the least privileged role unless the owner picks another; after each invitation the form starts over. */
export function InviteForm({ onInvited }: { onInvited: (invitation: Invitation) => void }) {
  const [role, setRole] = useState<Role>(LEAST_PRIVILEGED_ROLE);
  const [email, setEmail] = useState('');
  const mutation = useMutation({
    mutationFn: () => createInvitation({ role, ...(email ? { email } : {}) }),
    onSuccess: (invitation) => {
      setEmail('');
      setRole(LEAST_PRIVILEGED_ROLE);
      onInvited(invitation);
    },
  });
  return (
    <CardForm dataMode="shared" label="Invite a member" title="Invite" error={mutation.error} fields={['role', 'email']} onSubmit={() => mutation.mutate()}>
      <SelectField label="Role" name="role" value={role} error={mutation.error} onChange={(event) => setRole(event.target.value as Role)}
        options={ASSIGNABLE_ROLES.map((value) => ({ value, label: value }))} />
      <TextField label="Email (optional)" name="email" type="email" value={email} error={mutation.error} hint="Only this address can accept, when given."
        onChange={(event) => setEmail(event.target.value)} />
      <button type="submit" disabled={mutation.isPending}>
        Create invitation link
      </button>
    </CardForm>
  );
}
