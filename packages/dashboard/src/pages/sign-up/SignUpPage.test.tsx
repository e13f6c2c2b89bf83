import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const NO_SESSION = problem(401, 'invalid_refresh_token', 'No refresh token');

async function fillSignUp(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Your name'), 'Ada');
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await user.type(screen.getByLabelText('Organization name'), 'Acme Learning');
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
}

describe('sign up', () => {
  it('asks for the account, then says to check the inbox (with the local inbox in development)', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      // The certificate service's own message (sign-up.service.ts).
      'POST /dashboard/api/auth/signup': { status: 202, body: { status: 'mail_sent', message: 'Check your inbox: we sent a link to confirm your email address.', mail_inbox_url: 'http://127.0.0.1:1080/' } },
    });
    const { user } = renderApp('/sign-up');
    await fillSignUp(user);
    const notice = await screen.findByTestId('check-inbox');
    expect(within(notice).getByRole('heading', { name: 'Check your inbox' })).toBeTruthy();
    expect(notice.textContent!.split('Check your inbox')).toHaveLength(2);
    expect(notice.textContent).toContain('We sent a link to confirm your email address. It went to ada@example.com; open the link in it to finish.');
    expect(within(notice).getByRole('link', { name: 'local inbox' }).getAttribute('href')).toBe('http://127.0.0.1:1080/');
    expect(api.calls('POST /dashboard/api/auth/signup')[0]!.body).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse battery',
      organization_name: 'Acme Learning',
    });
  });

  async function confirm(user: ReturnType<typeof renderApp>['user'], password = 'correct horse battery') {
    await user.type(await screen.findByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Confirm and create my account' }));
  }

  it('opens the mailed link: asks for the sign-up password, sends nothing before it, then the dashboard of the new organization opens', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/verify-email': { status: 201, body: session() },
    });
    const { user } = renderApp('/verify-email/tok_mailed_1234567890abc');
    expect(await screen.findByRole('heading', { name: 'Confirm your email' })).toBeTruthy();
    // Opening the link alone confirms nothing: a stranger's sign-up with this address must not become an account.
    expect(api.calls('POST /dashboard/api/auth/verify-email')).toHaveLength(0);
    await confirm(user);
    expect(await screen.findByRole('heading', { name: 'Acme Learning' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/verify-email')).toHaveLength(1);
    expect(api.calls('POST /dashboard/api/auth/verify-email')[0]!.body).toEqual({ token: 'tok_mailed_1234567890abc', password: 'correct horse battery' });
    expect(within(screen.getByRole('banner')).getByText('ada@example.com')).toBeTruthy();
  });

  it('says so when the mailed link is used up or expired', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/verify-email': problem(404, 'token_not_found', 'This link is unknown, expired or already used'),
    });
    const { user } = renderApp('/verify-email/tok_old_1234567890abcdef');
    await confirm(user);
    expect((await screen.findByRole('alert')).textContent).toContain('This link is unknown, expired or already used');
  });

  it('refuses a password that is not the one chosen at sign-up, and stays on the page', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/verify-email': problem(401, 'invalid_credentials', 'This is not the password chosen when signing up with this address'),
    });
    const { user } = renderApp('/verify-email/tok_mailed_1234567890abc');
    await confirm(user, 'not my sign-up password');
    expect((await screen.findByRole('alert')).textContent).toContain('This is not the password chosen when signing up with this address');
    expect(screen.getByRole('heading', { name: 'Confirm your email' })).toBeTruthy();
  });

  it('shows a refusal as a form error and a field error tied to its input', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/signup': (request) =>
        (request.body as { password: string }).password.length < 10
          ? problem(422, 'validation_failed', 'The request is invalid', [{ path: 'password', message: 'must be at least 10 characters' }])
          : problem(429, 'too_many_attempts', 'Too many sign-ups from this address'),
    });
    const { user } = renderApp('/sign-up');
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText('must be at least 10 characters')).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    const describedBy = password.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain('must be at least 10 characters');

    await user.type(password, ' and longer');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many sign-ups from this address');
    expect(screen.getByRole('heading', { name: 'Sign up' })).toBeTruthy();
  });

  it('sends an account without organization to create one, and creates it', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/verify-email': { status: 201, body: session({ access_token: null, organization: null, memberships: [] }) },
      'POST /dashboard/api/auth/organizations': { status: 201, body: session({ organization: { id: 'org_2', name: 'Second', role: 'owner' } }) },
    });
    const { user } = renderApp('/verify-email/tok_mailed_1234567890abc');
    await confirm(user);
    await user.type(await screen.findByLabelText('Organization name'), 'Second');
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('heading', { name: 'Second' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/organizations')[0]!.body).toEqual({ name: 'Second' });
  });
});
