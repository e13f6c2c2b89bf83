/** /dashboard/invite/<token>: shows the invitation; a signed-in account accepts it, a visitor signs up (or in) to join. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../auth/session';
import { acceptInvitation, getInvitation } from '../../auth/session-api';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { SignUpForm } from '../sign-up/SignUpPage';

export function AcceptInvitationPage() {
  const { token = '' } = useParams();
  const { session, adopt } = useSession();
  const navigate = useNavigate();
  const invitation = useQuery({ queryKey: ['invitation', token], queryFn: () => getInvitation(token), retry: false });
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: (next) => {
      adopt(next);
      navigate('/');
    },
  });
  return (
    <main id="main" className="auth-page">
      <h1>Invitation</h1>
      <QueryState isLoading={invitation.isLoading} error={invitation.error} what="the invitation" />
      {invitation.data && (
        <>
          <p data-testid="invitation-summary">
            You are invited to join <strong>{invitation.data.organization_name}</strong> as <strong>{invitation.data.role}</strong>
            {invitation.data.email ? ` (${invitation.data.email})` : ''}. The invitation expires {formatDate(invitation.data.expires_at)}.
          </p>
          {session ? (
            <>
              <FormError error={accept.error} />
              <button type="button" onClick={() => accept.mutate()} disabled={accept.isPending}>
                Accept invitation as {session.account.email}
              </button>
            </>
          ) : (
            <>
              <h2>Create your account to join</h2>
              <SignUpForm invitationToken={token} {...(invitation.data.email ? { invitationEmail: invitation.data.email } : {})} />
              <p>
                Already have an account? <Link to="/sign-in" state={{ from: `/invite/${token}` }}>Sign in</Link>, then open this link again.
              </p>
            </>
          )}
        </>
      )}
    </main>
  );
}
