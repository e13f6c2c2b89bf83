/** The accounts routes the session uses (gateway /dashboard/api/auth → certificate /accounts/v1). */
import type { InvitationPreview, MailSent, Session, SignIn, SignUp } from '../api/accounts';
import { request } from '../api/http';

/**
 * Sign-up mails a link; the account exists (and is signed in) once `verifyEmail` is called with the link's token and the
 * sign-up's password. With the token of an invitation mailed to the same address the answer is the session itself
 * (201: the invitation's mail proved the address).
 */
export const signUp = (body: SignUp) => request<MailSent | Session>('auth', '/signup', { method: 'POST', body });
export const verifyEmail = (token: string, password: string) => request<Session>('auth', '/verify-email', { method: 'POST', body: { token, password } });
/** Mails a reset link when the email has an account (the 202 is the same either way). */
export const requestPasswordReset = (email: string) => request<MailSent>('auth', '/password-reset', { method: 'POST', body: { email } });
/** Uses the mailed reset link's token: the new password is set and this browser is signed in. */
export const confirmPasswordReset = (token: string, password: string) =>
  request<Session>('auth', '/password-reset/confirm', { method: 'POST', body: { token, password } });
export const signIn = (body: SignIn) => request<Session>('auth', '/sessions', { method: 'POST', body });
/**
 * Exchanges the refresh cookie for a new access token (and a rotated cookie); switches organization when given.
 * One refresh at a time: the cookie rotates on every refresh and presenting a rotated one revokes the whole session,
 * so a second caller (React's development double effects, a 401 retry racing the timer) shares the one in flight.
 */
let inFlight: { organizationId?: string; answer: Promise<Session> } | null = null;
export function refreshSession(organizationId?: string): Promise<Session> {
  if (inFlight && inFlight.organizationId === organizationId) return inFlight.answer;
  const previous = inFlight?.answer.catch(() => undefined) ?? Promise.resolve();
  const answer = previous.then(() =>
    request<Session>('auth', '/sessions/refresh', { method: 'POST', body: organizationId ? { organization_id: organizationId } : {} }),
  );
  const entry = { organizationId, answer };
  inFlight = entry;
  const clear = () => {
    if (inFlight === entry) inFlight = null;
  };
  answer.then(clear, clear);
  return answer;
}
export const signOut = () => request<void>('auth', '/sessions/current', { method: 'DELETE' });
export const createOrganization = (name: string) => request<Session>('auth', '/organizations', { method: 'POST', body: { name } });
export const getInvitation = (token: string) => request<InvitationPreview>('auth', `/invitations/${encodeURIComponent(token)}`);
export const acceptInvitation = (token: string) =>
  request<Session>('auth', `/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST', body: {} });
