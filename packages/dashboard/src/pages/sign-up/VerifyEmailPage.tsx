/**
 * /dashboard/verify-email/<token>: the link mailed at sign-up. The account is made (and signed in) only when the
 * opener also enters the password chosen at that sign-up: the link proves the mailbox, the password the one who signed
 * up, so a stranger's sign-up with this address never becomes an account by clicking "confirm" (issue 35).
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../auth/session';
import { verifyEmail } from '../../auth/session-api';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';

export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const { adopt } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const mutation = useMutation({
    mutationFn: () => verifyEmail(token, password),
    onSuccess: (session) => {
      adopt(session);
      navigate(session.organization ? '/' : '/organizations/new', { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <main id="main" className="auth-page">
      <h1>Confirm your email</h1>
      <form onSubmit={submit} noValidate aria-label="Confirm your email">
        <FormError error={mutation.error} fields={['password']} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required
          hint="The password you chose when you signed up. If you did not sign up, close this page: no account is made."
          value={password} error={mutation.error} onChange={(event) => setPassword(event.target.value)} />
        <button type="submit" disabled={mutation.isPending}>
          Confirm and create my account
        </button>
      </form>
      {mutation.isError && (
        <p>
          <Link to="/sign-up">Sign up again</Link> or <Link to="/sign-in">sign in</Link>.
        </p>
      )}
    </main>
  );
}
