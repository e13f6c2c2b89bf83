/** /dashboard/reset-password: asks for the account's email and has a reset link mailed (the answer never says whether it has an account). */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { requestPasswordReset } from '../../auth/session-api';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';
import { CheckInbox } from '../sign-up/CheckInbox';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const mutation = useMutation({ mutationFn: () => requestPasswordReset(email) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <main id="main" className="auth-page">
      <h1>Reset your password</h1>
      {mutation.data ? (
        <CheckInbox sent={mutation.data} email={email} />
      ) : (
        <form onSubmit={submit} noValidate aria-label="Request a password reset">
          <FormError error={mutation.error} fields={['email']} />
          <TextField label="Email" name="email" type="email" autoComplete="email" required value={email} error={mutation.error}
            hint="We mail a link to choose a new password." onChange={(event) => setEmail(event.target.value)} />
          <button type="submit" disabled={mutation.isPending}>
            Mail me a link
          </button>
        </form>
      )}
      <p>
        Remembered it? <Link to="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
