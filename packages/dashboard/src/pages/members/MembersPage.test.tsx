import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const members = [
  { account_id: 'acc_1', email: 'ada@example.com', name: 'Ada', role: 'owner', created_at: '2026-11-01T10:00:00Z' },
  { account_id: 'acc_2', email: 'grace@example.com', name: 'Grace', role: 'member', created_at: '2026-11-02T10:00:00Z' },
];

describe('members', () => {
  it('invites with a copyable link, changes a role and removes a member', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/members': { body: { data: members } },
      'GET /dashboard/api/certificate/invitations': { body: { data: [] } },
      'POST /dashboard/api/certificate/invitations': (request) => ({
        status: 201,
        body: { id: 'inv_1', token: 'tok', invite_url: 'http://127.0.0.1:8080/dashboard/invite/tok', expires_at: '2026-12-03T10:00:00Z', email: null, ...(request.body as object) },
      }),
      'PATCH /dashboard/api/certificate/members/acc_2': { body: { ...members[1], role: 'operator' } },
      'DELETE /dashboard/api/certificate/members/acc_2': { status: 204 },
    });
    const { user } = renderApp('/members');
    await user.selectOptions(await screen.findByLabelText('Role'), 'operator');
    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
    expect((await screen.findByTestId('invite-url')).textContent).toBe('http://127.0.0.1:8080/dashboard/invite/tok');
    expect(api.calls('POST /dashboard/api/certificate/invitations')[0]!.body).toEqual({ role: 'operator' });

    const grace = screen.getByTestId('member-grace@example.com');
    await user.selectOptions(within(grace).getByLabelText('Role of grace@example.com'), 'operator');
    expect(api.calls('PATCH /dashboard/api/certificate/members/acc_2')[0]!.body).toEqual({ role: 'operator' });
    await user.click(within(grace).getByRole('button', { name: 'Remove' }));
    expect(api.calls('DELETE /dashboard/api/certificate/members/acc_2')).toHaveLength(1);
  });

  it('starts an invitation at the least privileged role (member, the first option; never owner) and starts over after each', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/members': { body: { data: members } },
      'GET /dashboard/api/certificate/invitations': { body: { data: [] } },
      'POST /dashboard/api/certificate/invitations': (request) => ({
        status: 201,
        body: { id: 'inv_1', token: 'tok', invite_url: 'http://127.0.0.1:8080/dashboard/invite/tok', expires_at: '2026-12-03T10:00:00Z', email: null, ...(request.body as object) },
      }),
    });
    const { user } = renderApp('/members');
    const role = (await screen.findByLabelText('Role')) as HTMLSelectElement;
    expect(role.value).toBe('member');
    expect([...role.options].map((option) => option.value)).toEqual(['member', 'operator', 'owner']);
    expect(role.selectedOptions[0]!.textContent).toBe('member');
    // Even the form's own reset (the browser's default option) lands on member.
    role.closest('form')!.reset();
    expect(role.selectedIndex).toBe(0);
    expect(role.options[0]!.value).toBe('member');

    await user.selectOptions(role, 'owner');
    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
    await screen.findByTestId('invite-url');
    expect(api.calls('POST /dashboard/api/certificate/invitations')[0]!.body).toEqual({ role: 'owner' });
    expect(((await screen.findByLabelText('Role')) as HTMLSelectElement).value).toBe('member');
  });

  it('shows the refusal to demote the last owner', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/members': { body: { data: members } },
      'GET /dashboard/api/certificate/invitations': { body: { data: [] } },
      'PATCH /dashboard/api/certificate/members/acc_1': problem(409, 'last_owner', 'The organization needs at least one owner'),
    });
    const { user } = renderApp('/members');
    const ada = await screen.findByTestId('member-ada@example.com');
    await user.selectOptions(within(ada).getByLabelText('Role of ada@example.com'), 'member');
    expect((await within(ada).findByRole('alert')).textContent).toContain('The organization needs at least one owner');
  });
});
