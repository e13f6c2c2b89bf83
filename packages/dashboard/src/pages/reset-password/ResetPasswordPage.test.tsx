import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

describe('reset password', () => {
  it('sign-in links to "Forgot password?", which mails a link', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': problem(401, 'invalid_refresh_token', 'Signed out'),
      'POST /dashboard/api/auth/password-reset': { status: 202, body: { status: 'mail_sent', message: 'If an account has this email, we sent it a link.' } },
    });
    const { user } = renderApp('/sign-in');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Mail me a link' }));
    expect((await screen.findByTestId('check-inbox')).textContent).toContain('ada@example.com');
    expect(api.calls('POST /dashboard/api/auth/password-reset')[0]!.body).toEqual({ email: 'ada@example.com' });
  });

  it('sets the new password with the link token and signs in', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': problem(401, 'invalid_refresh_token', 'Signed out'),
      'POST /dashboard/api/auth/password-reset/confirm': { body: session({ organization: { id: 'org_1', name: 'Acme', role: 'owner' } }) },
      'GET /dashboard/api/certificate/summary': { body: { days: [], certificates_issued: 0, credits_used_this_month: 0 } },
    });
    const { user } = renderApp('/reset-password/tok_abcdefghijklmnopqrstuvwxyz');
    await user.type(await screen.findByLabelText('New password'), 'a brand new password');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    await vi.waitFor(() => expect(api.calls('POST /dashboard/api/auth/password-reset/confirm')).toHaveLength(1));
    expect(api.calls('POST /dashboard/api/auth/password-reset/confirm')[0]!.body).toEqual({ token: 'tok_abcdefghijklmnopqrstuvwxyz', password: 'a brand new password' });
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'Choose a new password' })).toBeNull());
  });
});
