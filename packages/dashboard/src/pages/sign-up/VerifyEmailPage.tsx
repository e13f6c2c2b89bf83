/** /dashboard/verify-email/<token>: the link mailed at sign-up. Using it makes the account and signs it in. */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../auth/session';
import { verifyEmail } from '../../auth/session-api';
import { FormError } from '../../ui/FormError';

export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const { session, adopt } = useSession();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: () => verifyEmail(token),
    onSuccess: (session) => {
      adopt(session);
      navigate(session.organization ? '/' : '/organizations/new', { replace: true });
    },
  });
  // Sent once the page's first refresh has answered (so its "signed out" cannot overwrite the new session), and only
  // once: the token works once, and React's development double effects must not send it twice.
  const sent = useRef(false);
  useEffect(() => {
    if (session === undefined || sent.current) return;
    sent.current = true;
    mutation.mutate();
  }, [session, mutation]);
  return (
    <main id="main" className="auth-page">
      <h1>Confirming your email</h1>
      {mutation.isPending && <p>One moment…</p>}
      <FormError error={mutation.error} />
      {mutation.isError && (
        <p>
          <Link to="/sign-up">Sign up again</Link> or <Link to="/sign-in">sign in</Link>.
        </p>
      )}
    </main>
  );
}
