import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { ASSIGNABLE_ROLES, type Member, type Role } from '../../api/accounts';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { changeRole, removeMember } from './members-api';

interface Props {
  member: Member;
  isSelf: boolean;
  isOwner: boolean;
  onChanged: () => void;
  onLeft: () => void;
}

/** A member: owners change roles and remove; anyone can leave. The service refuses to lose the last owner (409 last_owner). */
export function MemberRow({ member, isSelf, isOwner, onChanged, onLeft }: Props) {
  const roleId = useId();
  const role = useMutation({ mutationFn: (next: Role) => changeRole(member.account_id, next), onSuccess: onChanged });
  const remove = useMutation({ mutationFn: () => removeMember(member.account_id), onSuccess: isSelf ? onLeft : onChanged });
  return (
    <tr data-testid={`member-${member.email}`}>
      <td>
        {member.name}
        {isSelf ? ' (you)' : ''}
        <div className="muted">{member.email}</div>
      </td>
      <td>
        {isOwner ? (
          <>
            <label htmlFor={roleId} className="visually-hidden">
              Role of {member.email}
            </label>
            <select id={roleId} value={member.role} onChange={(event) => role.mutate(event.target.value as Role)} disabled={role.isPending}>
              {[...new Set([member.role, ...ASSIGNABLE_ROLES])].map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </>
        ) : (
          member.role
        )}
      </td>
      <td>{formatDate(member.created_at)}</td>
      <td>
        {(isOwner || isSelf) && (
          <ConfirmButton className="danger" question={isSelf ? 'Leave this organization?' : `Remove ${member.email}?`} onConfirm={() => remove.mutate()}>
            {isSelf ? 'Leave' : 'Remove'}
          </ConfirmButton>
        )}
        <FormError error={role.error ?? remove.error} />
      </td>
    </tr>
  );
}
