import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../auth/session';
import { signIn } from '../../auth/session-api';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';

export function SignInPage() {
  const { adopt } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';
  const [form, setForm] = useState({ email: '', password: '' });
  const mutation = useMutation({
    mutationFn: () => signIn(form),
    onSuccess: (session) => {
      adopt(session);
      navigate(from, { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <main id="main" className="auth-page">
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <FormError error={mutation.error} fields={['email', 'password']} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required value={form.email} error={mutation.error}
          onChange={(event) => setForm({ ...form, email: event.target.value })} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required value={form.password}
          error={mutation.error} onChange={(event) => setForm({ ...form, password: event.target.value })} />
        <button type="submit" disabled={mutation.isPending}>
          Sign in
        </button>
      </form>
      <p>
        <Link to="/reset-password">Forgot password?</Link>
      </p>
      <p>
        No account yet? <Link to="/sign-up">Sign up</Link>
      </p>
    </main>
  );
}
