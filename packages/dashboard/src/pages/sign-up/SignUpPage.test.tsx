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
  it('creates the account and organization, then opens the dashboard of that organization', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/signup': { status: 201, body: session() },
    });
    const { user } = renderApp('/sign-up');
    await fillSignUp(user);
    expect(await screen.findByRole('heading', { name: 'Acme Learning' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/signup')[0]!.body).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse battery',
      organization_name: 'Acme Learning',
    });
    expect(within(screen.getByRole('banner')).getByText('ada@example.com')).toBeTruthy();
  });

  it('shows a taken email as a form error and a field error tied to its input', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/signup': (request) =>
        (request.body as { password: string }).password.length < 10
          ? problem(422, 'validation_failed', 'The request is invalid', [{ path: 'password', message: 'must be at least 10 characters' }])
          : problem(409, 'email_taken', 'An account with this email exists'),
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
    expect((await screen.findByRole('alert')).textContent).toContain('An account with this email exists');
    expect(screen.getByRole('heading', { name: 'Sign up' })).toBeTruthy();
  });

  it('sends an account without organization to create one, and creates it', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': NO_SESSION,
      'POST /dashboard/api/auth/signup': { status: 201, body: session({ access_token: null, organization: null, memberships: [] }) },
      'POST /dashboard/api/auth/organizations': { status: 201, body: session({ organization: { id: 'org_2', name: 'Second', role: 'owner' } }) },
    });
    const { user } = renderApp('/sign-up');
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await user.type(await screen.findByLabelText('Organization name'), 'Second');
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('heading', { name: 'Second' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/organizations')[0]!.body).toEqual({ name: 'Second' });
  });
});
