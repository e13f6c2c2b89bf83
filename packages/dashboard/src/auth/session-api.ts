/** The accounts routes the session uses (gateway /dashboard/api/auth → certificate /accounts/v1). */
import type { InvitationPreview, Session, SignIn, SignUp } from '../api/accounts';
import { request } from '../api/http';

export const signUp = (body: SignUp) => request<Session>('auth', '/signup', { method: 'POST', body });
export const signIn = (body: SignIn) => request<Session>('auth', '/sessions', { method: 'POST', body });
/** Exchanges the refresh cookie for a new access token (and a rotated cookie); switches organization when given. */
export const refreshSession = (organizationId?: string) =>
  request<Session>('auth', '/sessions/refresh', { method: 'POST', body: organizationId ? { organization_id: organizationId } : {} });
export const signOut = () => request<void>('auth', '/sessions/current', { method: 'DELETE' });
export const createOrganization = (name: string) => request<Session>('auth', '/organizations', { method: 'POST', body: { name } });
export const getInvitation = (token: string) => request<InvitationPreview>('auth', `/invitations/${encodeURIComponent(token)}`);
export const acceptInvitation = (token: string) =>
  request<Session>('auth', `/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST', body: {} });
