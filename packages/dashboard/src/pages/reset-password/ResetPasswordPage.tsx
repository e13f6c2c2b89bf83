/**
 * /dashboard/reset-password/<token>: the link mailed by "Forgot password?". A new password is set once; every other
 * sign-in of the account ends and this browser is signed in.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { MIN_PASSWORD_LENGTH } from '../../api/accounts';
import { useSession } from '../../auth/session';
import { confirmPasswordReset } from '../../auth/session-api';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const { adopt } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const mutation = useMutation({
    mutationFn: () => confirmPasswordReset(token, password),
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
      <h1>Choose a new password</h1>
      <form onSubmit={submit} noValidate aria-label="Choose a new password">
        <FormError error={mutation.error} fields={['password']} />
        <TextField label="New password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. Every other browser signed in to this account is signed out.`} value={password}
          error={mutation.error} onChange={(event) => setPassword(event.target.value)} />
        <button type="submit" disabled={mutation.isPending}>
          Set the new password
        </button>
      </form>
      {mutation.isError && (
        <p>
          A link works once and for a limited time: <Link to="/reset-password">ask for a new one</Link>.
        </p>
      )}
    </main>
  );
}
