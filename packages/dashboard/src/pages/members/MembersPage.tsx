/** Members and pending invitations of the organization. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Invitation } from '../../api/accounts';
import { useIsOwner, useSession } from '../../auth/session';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { SecretBox } from '../../ui/SecretBox';
import { InviteForm } from './InviteForm';
import { MemberRow } from './MemberRow';
import { cancelInvitation, listInvitations, listMembers } from './members-api';
import { MEMBER_VALUES } from '../../ui/list-columns';

export function MembersPage() {
  const { session, signOut, switchOrganization } = useSession();
  const isOwner = useIsOwner();
  const queryClient = useQueryClient();
  const [invited, setInvited] = useState<Invitation | null>(null);
  const members = useQuery({ queryKey: ['members'], queryFn: listMembers });
  const invitations = useQuery({ queryKey: ['invitations'], queryFn: listInvitations, enabled: isOwner });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['members'] });
  const cancel = useMutation({ mutationFn: cancelInvitation, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }) });
  /** After leaving, continue in another organization of the account, or sign out when there is none. */
  const leave = () => {
    const other = session?.memberships.find((membership) => membership.organization_id !== session.organization?.id);
    void (other ? switchOrganization(other.organization_id) : signOut());
  };
  const onInvited = (invitation: Invitation) => {
    setInvited(invitation);
    void queryClient.invalidateQueries({ queryKey: ['invitations'] });
  };
  return (
    <section>
      <h1>Members</h1>
      {isOwner && <InviteForm onInvited={onInvited} />}
      {invited?.invite_url && <SecretBox label={`Invitation link (${invited.role})`} value={invited.invite_url} testId="invite-url" onDismiss={() => setInvited(null)} />}
      <DataTable dataMode="shared" query={members} what="members" caption="Members" columns={['Member', 'Role', 'Joined', 'Actions']}
        rows={members.data?.data} rowKey={(member) => member.account_id} values={MEMBER_VALUES} exportName="members"
        renderRow={(member) => (
          <MemberRow member={member} isOwner={isOwner} isSelf={member.account_id === session?.account.id} onChanged={refresh} onLeft={() => leave()} />
        )} />
      {isOwner && (
        <>
          <h2>Pending invitations</h2>
          <QueryState isLoading={invitations.isLoading} error={invitations.error} what="invitations" />
          <FormError error={cancel.error} />
          {invitations.data && (
            <ul>
              {invitations.data.data.length === 0 && <li>None.</li>}
              {invitations.data.data.map((invitation) => (
                <li key={invitation.id}>
                  {invitation.role}
                  {invitation.email ? ` for ${invitation.email}` : ''}, expires {formatDate(invitation.expires_at)}{' '}
                  <button type="button" onClick={() => cancel.mutate(invitation.id)}>
                    Cancel
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
