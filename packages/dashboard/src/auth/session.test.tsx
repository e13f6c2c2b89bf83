import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../test/fake-api';
import { renderApp, session } from '../test/render';

const twoOrgs = session({
  memberships: [
    { organization_id: 'org_1', organization_name: 'Acme Learning', role: 'owner' },
    { organization_id: 'org_2', organization_name: 'Beta Rides', role: 'member' },
  ],
});

describe('session', () => {
  it('renews the session from the refresh cookie on load and calls the admin API with the access token', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: twoOrgs },
      'GET /dashboard/api/certificate/api-keys': { body: { data: [], has_more: false, next_cursor: null } },
    });
    renderApp('/api-keys/certificate');
    expect(await screen.findByText('No keys yet.')).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/sessions/refresh')[0]!.credentials).toBe('same-origin');
    expect(api.calls('GET /dashboard/api/certificate/api-keys')[0]!.headers.authorization).toBe('Bearer access-token-1');
  });

  it('refreshes once on load even when React runs the effect twice (a second refresh would present a rotated cookie)', async () => {
    const api = fakeApi({ 'POST /dashboard/api/auth/sessions/refresh': { body: session() } });
    renderApp('/', { strict: true });
    expect(await screen.findByRole('heading', { name: 'Acme Learning' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/sessions/refresh')).toHaveLength(1);
  });

  it('renews an expired access token once when the admin API answers 401, and repeats the call', async () => {
    let refreshes = 0;
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': () => ({ body: session({ access_token: `access-token-${++refreshes}` }) }),
      'GET /dashboard/api/certificate/api-keys': (request) =>
        request.headers.authorization === 'Bearer access-token-2'
          ? { body: { data: [], has_more: false, next_cursor: null } }
          : problem(401, 'invalid_token', 'The token has expired'),
    });
    renderApp('/api-keys/certificate');
    expect(await screen.findByText('No keys yet.')).toBeTruthy();
    expect(api.calls('GET /dashboard/api/certificate/api-keys').map((call) => call.headers.authorization)).toEqual([
      'Bearer access-token-1',
      'Bearer access-token-2',
    ]);
  });

  it('sends to sign-in when the session cannot be renewed after a 401', async () => {
    let refreshes = 0;
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': () =>
        ++refreshes === 1 ? { body: session() } : problem(401, 'refresh_token_reused', 'This session has ended'),
      'GET /dashboard/api/certificate/api-keys': problem(401, 'invalid_token', 'The token has expired'),
    });
    renderApp('/api-keys/certificate');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('sends a visitor to sign in, and back to the page they asked for after signing in', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': problem(401, 'invalid_refresh_token', 'No refresh token'),
      'POST /dashboard/api/auth/sessions': (request) =>
        (request.body as { password: string }).password === 'right password'
          ? { body: session() }
          : problem(401, 'invalid_credentials', 'Wrong email or password'),
      'GET /dashboard/api/certificate/members': { body: { data: [] } },
    });
    const { user } = renderApp('/members');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong email or password');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'right password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Members' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/sessions')).toHaveLength(2);
  });

  it('switches organization by renewing the session in it', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': (request) =>
        (request.body as { organization_id?: string }).organization_id === 'org_2'
          ? { body: { ...twoOrgs, access_token: 'access-token-2', organization: { id: 'org_2', name: 'Beta Rides', role: 'member' } } }
          : { body: twoOrgs },
    });
    const { user } = renderApp('/');
    await user.selectOptions(await screen.findByTestId('organization-switcher'), 'org_2');
    expect(await screen.findByRole('heading', { name: 'Beta Rides' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/sessions/refresh').at(-1)!.body).toEqual({ organization_id: 'org_2' });
  });

  it('signs out: deletes the session and shows the sign-in page', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'DELETE /dashboard/api/auth/sessions/current': { status: 204 },
    });
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(api.calls('DELETE /dashboard/api/auth/sessions/current')).toHaveLength(1);
  });
});
