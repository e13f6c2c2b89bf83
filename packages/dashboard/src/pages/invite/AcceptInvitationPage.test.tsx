import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const preview = { organization_name: 'Acme Learning', role: 'member', email: null, expires_at: '2026-12-03T10:00:00Z' };

describe('invitation', () => {
  it('lets a visitor sign up with the invitation token; the mailed link then joins the organization', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': problem(401, 'invalid_refresh_token', 'No refresh token'),
      'GET /dashboard/api/auth/invitations/tok_1': { body: preview },
      'POST /dashboard/api/auth/signup': { status: 202, body: { status: 'mail_sent', message: 'Check your inbox.' } },
    });
    const { user } = renderApp('/invite/tok_1');
    expect((await screen.findByTestId('invitation-summary')).textContent).toContain('Acme Learning as member');
    expect(screen.queryByLabelText('Organization name')).toBeNull();
    await user.type(screen.getByLabelText('Your name'), 'Grace');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up and join' }));
    expect((await screen.findByTestId('check-inbox')).textContent).toContain('grace@example.com');
    expect(api.calls('POST /dashboard/api/auth/signup')[0]!.body).toMatchObject({ invitation_token: 'tok_1', email: 'grace@example.com' });
  });

  it('fixes the email of an invitation mailed to it (read-only): signing up joins at once, with no "check your inbox"', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': problem(401, 'invalid_refresh_token', 'No refresh token'),
      'GET /dashboard/api/auth/invitations/tok_2': { body: { ...preview, email: 'grace@example.com' } },
      'POST /dashboard/api/auth/signup': {
        status: 201,
        body: session({ account: { id: 'acc_2', email: 'grace@example.com', name: 'Grace' }, organization: { id: 'org_9', name: 'Joined Org', role: 'member' } }),
      },
    });
    const { user } = renderApp('/invite/tok_2');
    const email = (await screen.findByLabelText('Email')) as HTMLInputElement;
    expect(email.value).toBe('grace@example.com');
    expect(email.readOnly).toBe(true);
    expect(screen.getByText('The address the invitation was sent to; it is confirmed already.')).toBeTruthy();
    await user.type(email, 'x'); // read-only: typing changes nothing
    expect(email.value).toBe('grace@example.com');
    await user.type(screen.getByLabelText('Your name'), 'Grace');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up and join' }));
    expect(await screen.findByRole('heading', { name: 'Joined Org' })).toBeTruthy();
    expect(screen.queryByTestId('check-inbox')).toBeNull();
    expect(api.calls('POST /dashboard/api/auth/signup')[0]!.body).toMatchObject({ invitation_token: 'tok_2', email: 'grace@example.com', name: 'Grace' });
  });

  it('lets a signed-in account accept', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/auth/invitations/tok_1': { body: preview },
      'POST /dashboard/api/auth/invitations/tok_1/accept': { body: session({ organization: { id: 'org_9', name: 'Joined Org', role: 'member' } }) },
    });
    const { user } = renderApp('/invite/tok_1');
    await user.click(await screen.findByRole('button', { name: 'Accept invitation as ada@example.com' }));
    expect(await screen.findByRole('heading', { name: 'Joined Org' })).toBeTruthy();
    expect(api.calls('POST /dashboard/api/auth/invitations/tok_1/accept')).toHaveLength(1);
  });

  it('says when an invitation is unknown, used or expired', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': problem(401, 'invalid_refresh_token', 'No refresh token'),
      'GET /dashboard/api/auth/invitations/gone': problem(404, 'invitation_not_found', 'This invitation is unknown, used or expired'),
    });
    renderApp('/invite/gone');
    expect((await screen.findByRole('alert')).textContent).toContain('This invitation is unknown, used or expired');
    expect(screen.queryByRole('button', { name: 'Sign up and join' })).toBeNull();
  });
});
