import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const key = (overrides: Record<string, unknown> = {}) => ({
  id: 'key_1',
  name: 'Production',
  status: 'active',
  token_hint: 'a1b2',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  last_used_at: null,
  expires_at: null,
  rotated_at: null,
  revoked_at: null,
  previous_token_expires_at: null,
  ...overrides,
});

describe('API keys', () => {
  it("shows each key's hint as the service gives it, and what a certificate key may do in place of scopes", async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/api-keys': { body: { data: [key({ token_hint: 'ck_xaph…DuYb' })], has_more: false, next_cursor: null } },
    });
    renderApp('/api-keys/certificate');
    const row = await screen.findByTestId('api-key-key_1');
    expect(within(row).getByText('ck_xaph…DuYb')).toBeTruthy();
    expect(row.textContent).not.toContain('…ck_');
    const cells = within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells[2]).toBe('Read credits, verify certificates (every certificate key)');
  });


  it('creates a mobility key with scopes and mode, and shows its token once with a copy button', async () => {
    const keys: ReturnType<typeof key>[] = [];
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/api-keys': () => ({ body: { data: keys, has_more: false, next_cursor: null } }),
      'POST /dashboard/api/mobility/api-keys': (request) => {
        const created = key({ id: 'key_2', name: 'Dispatch', scopes: ['rides:write', 'rides:read'], mode: 'live' });
        keys.push(created);
        return { status: 201, body: { ...created, token: 'mk_live_secret_token', ...(request.body as object) } };
      },
    });
    const { user } = renderApp('/api-keys/mobility');
    await user.type(await screen.findByLabelText('Key name'), 'Dispatch');
    await user.click(screen.getByRole('checkbox', { name: 'rides:write' }));
    await user.click(screen.getByRole('checkbox', { name: 'rides:read' }));
    await user.selectOptions(screen.getByLabelText('Mode'), 'live');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByTestId('api-key-token')).textContent).toBe('mk_live_secret_token');
    expect(api.calls('POST /dashboard/api/mobility/api-keys')[0]!.body).toEqual({ name: 'Dispatch', scopes: ['rides:write', 'rides:read'], mode: 'live' });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('mk_live_secret_token');
    expect(await screen.findByTestId('api-key-key_2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('api-key-token')).toBeNull();
  });

  it('shows a refused creation next to the field and adds nothing', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/api-keys': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/mobility/api-keys': problem(422, 'validation_failed', 'The request is invalid', [{ path: 'scopes', message: 'must name at least one scope' }]),
    });
    const { user } = renderApp('/api-keys/mobility');
    await user.type(await screen.findByLabelText('Key name'), 'No scopes');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByTestId('error-scopes')).textContent).toBe('must name at least one scope');
    expect(screen.queryByTestId('api-key-token')).toBeNull();
    expect(screen.getByText('No keys yet.')).toBeTruthy();
    expect(api.calls('GET /dashboard/api/mobility/api-keys')).toHaveLength(1);
  });

  it('rotates with an overlap, revokes and deletes a certificate key', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/api-keys': { body: { data: [key({ last_used_at: '2026-11-25T09:00:00Z' })], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/api-keys/key_1/rotate': { body: { ...key(), token: 'ck_rotated_token' } },
      'POST /dashboard/api/certificate/api-keys/key_1/revoke': { body: key({ status: 'revoked' }) },
      'DELETE /dashboard/api/certificate/api-keys/key_1': { status: 204 },
    });
    const { user } = renderApp('/api-keys/certificate');
    const row = await screen.findByTestId('api-key-key_1');
    // Relative, with the absolute time in the viewer's zone as its title.
    const lastUsed = row.querySelector('time[datetime="2026-11-25T09:00:00Z"]')!;
    expect(lastUsed.textContent).toMatch(/ago$/);
    expect(lastUsed.getAttribute('title')).toMatch(/2026.*\(.+\)$/);
    await user.selectOptions(within(row).getByLabelText('Overlap'), '86400');
    await user.click(within(row).getByRole('button', { name: 'Rotate' }));
    expect((await screen.findByTestId('api-key-token')).textContent).toBe('ck_rotated_token');
    expect(api.calls('POST /dashboard/api/certificate/api-keys/key_1/rotate')[0]!.body).toEqual({ grace_seconds: 86400 });
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(api.calls('POST /dashboard/api/certificate/api-keys/key_1/revoke')).toHaveLength(1);
    expect(api.calls('DELETE /dashboard/api/certificate/api-keys/key_1')).toHaveLength(1);
  });

  it('lets a member see keys but not change them', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme Learning', role: 'member' } }) },
      'GET /dashboard/api/certificate/api-keys': { body: { data: [key()], has_more: false, next_cursor: null } },
    });
    renderApp('/api-keys/certificate');
    const row = await screen.findByTestId('api-key-key_1');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Create an API key' })).toBeNull();
    expect(screen.getByText('Only owners can create, rotate, revoke and delete keys.')).toBeTruthy();
  });
});
