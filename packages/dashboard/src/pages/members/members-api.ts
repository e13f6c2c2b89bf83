import type { Invitation, Member, NewInvitation, Role } from '../../api/accounts';
import { request } from '../../api/http';
import type { Page } from '../../api/types';

export const listMembers = () => request<Page<Member>>('certificate', '/members');
export const changeRole = (accountId: string, role: Role) =>
  request<Member>('certificate', `/members/${encodeURIComponent(accountId)}`, { method: 'PATCH', body: { role } });
export const removeMember = (accountId: string) => request<void>('certificate', `/members/${encodeURIComponent(accountId)}`, { method: 'DELETE' });
export const listInvitations = () => request<Page<Invitation>>('certificate', '/invitations');
export const createInvitation = (body: NewInvitation) => request<Invitation>('certificate', '/invitations', { method: 'POST', body });
export const cancelInvitation = (id: string) => request<void>('certificate', `/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' });
