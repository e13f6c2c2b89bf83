import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { MIN_PASSWORD_LENGTH } from '../../api/accounts';
import { useSession } from '../../auth/session';
import { signUp } from '../../auth/session-api';
import { TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';
import { CheckInbox } from './CheckInbox';

const FIELDS = ['name', 'email', 'password', 'organization_name'];

/**
 * Sign-up; with an invitation token (from the invitation page) it joins that organization instead of creating one.
 * The account is made once the emailed link is opened (/verify-email/<token>): until then it shows "check your inbox".
 * An invitation for an email (`invitationEmail`) fixes the address (read-only): its mail proved it, so the account is
 * made and signed in at once, with no second confirmation mail.
 */
export function SignUpForm({ invitationToken, invitationEmail }: { invitationToken?: string; invitationEmail?: string }) {
  const [form, setForm] = useState({ name: '', email: invitationEmail ?? '', password: '', organization_name: '' });
  const { adopt } = useSession();
  const navigate = useNavigate();
  const mutation = useMutation({
    onSuccess: (answer) => {
      if ('access_token' in answer) {
        adopt(answer);
        navigate('/');
      }
    },
    mutationFn: () =>
      signUp({
        name: form.name,
        email: form.email,
        password: form.password,
        ...(invitationToken ? { invitation_token: invitationToken } : form.organization_name ? { organization_name: form.organization_name } : {}),
      }),
  });
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  if (mutation.data && 'status' in mutation.data) return <CheckInbox sent={mutation.data} email={form.email} />;
  return (
    <form onSubmit={submit} noValidate aria-label="Sign up">
      <FormError error={mutation.error} fields={FIELDS} />
      <TextField label="Your name" name="name" autoComplete="name" required value={form.name} error={mutation.error} onChange={set('name')} />
      <TextField label="Email" name="email" type="email" autoComplete="email" required value={form.email} error={mutation.error} onChange={set('email')}
        readOnly={invitationEmail !== undefined} hint={invitationEmail !== undefined ? 'The address the invitation was sent to; it is confirmed already.' : undefined} />
      <TextField label="Password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} value={form.password} error={mutation.error} onChange={set('password')} />
      {!invitationToken && (
        <TextField label="Organization name" name="organization_name" autoComplete="organization" value={form.organization_name}
          hint="Creates your organization, with you as its owner." error={mutation.error} onChange={set('organization_name')} />
      )}
      <button type="submit" disabled={mutation.isPending}>
        {invitationToken ? 'Sign up and join' : 'Sign up'}
      </button>
    </form>
  );
}

export function SignUpPage() {
  return (
    <main id="main" className="auth-page">
      <h1>Sign up</h1>
      <SignUpForm />
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
