import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const entry = { organization_id: 'org_1', target_id: null, details: {}, ip_address: '203.0.113.7' };

describe('audit log', () => {
  it("merges both services' entries newest first, naming mobility's actors from the members list", async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme', role: 'owner' } }) },
      'GET /dashboard/api/certificate/audit-log': {
        body: { data: [{ ...entry, id: 'aud_c1', actor_id: 'acc_1', actor_role: 'owner', actor_name: 'Ada', actor_email: 'ada@example.com', action: 'api_key.rotated', target_id: 'key_1', created_at: '2026-11-27T10:00:00Z' }], has_more: false, next_cursor: null },
      },
      'GET /dashboard/api/mobility/audit-log': {
        body: { data: [{ ...entry, id: 'aud_m1', actor_id: 'acc_2', actor_role: 'operator', action: 'webhook_endpoint.created', details: { url: 'https://example.com/hooks', events: ['ride.completed'] }, created_at: '2026-11-27T11:00:00Z' }], has_more: false, next_cursor: null },
      },
      'GET /dashboard/api/certificate/members': { body: { data: [{ account_id: 'acc_2', email: 'grace@example.com', name: 'Grace', role: 'operator', created_at: '2026-11-01T00:00:00Z' }] } },
    });
    renderApp('/audit-log');
    const rows = await screen.findAllByTestId('audit-entry');
    expect(rows.map((row) => row.getAttribute('data-action'))).toEqual(['webhook_endpoint.created', 'api_key.rotated']);
    await screen.findByText('Grace');
    expect(rows[0]!.textContent).toContain('url: https://example.com/hooks · events: ride.completed');
    expect(rows[1]!.textContent).toContain('API key rotated');
    expect(rows[1]!.textContent).toContain('ada@example.com');
    expect(rows[1]!.textContent).toContain('203.0.113.7');
  });

  it('shows the mode of each change and what an update or a delete changed, before and after', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme', role: 'owner' } }) },
      'GET /dashboard/api/certificate/audit-log': {
        body: {
          data: [
            { ...entry, id: 'aud_c3', actor_id: 'acc_1', actor_role: 'owner', action: 'certificate.revoked', target_id: 'cert_1', mode: 'test', before: { status: 'valid', revoked_at: null }, after: { status: 'revoked', revoked_at: '2026-11-27T12:00:00Z' }, created_at: '2026-11-27T12:00:00Z' },
            { ...entry, id: 'aud_c2', actor_id: 'acc_1', actor_role: 'owner', action: 'member.removed', target_id: 'acc_2', mode: 'live', before: { account_id: 'acc_2', role: 'member' }, after: null, created_at: '2026-11-27T11:00:00Z' },
            { ...entry, id: 'aud_c1', actor_id: 'acc_1', actor_role: 'owner', action: 'certificate.issued', target_id: 'cert_1', mode: 'live', before: null, after: null, created_at: '2026-11-27T10:00:00Z' },
            { ...entry, id: 'aud_c0', actor_id: 'acc_1', actor_role: 'payment', action: 'plan.changed', mode: null, created_at: '2026-11-27T09:00:00Z' },
          ],
          has_more: false,
          next_cursor: null,
        },
      },
      'GET /dashboard/api/mobility/audit-log': { body: { data: [], has_more: false, next_cursor: null } },
      'GET /dashboard/api/certificate/members': { body: { data: [] } },
    });
    renderApp('/audit-log');
    const rows = await screen.findAllByTestId('audit-entry');
    expect(screen.getByRole('columnheader', { name: /^Mode/ })).toBeTruthy();
    expect(rows.map((row) => within(row).getByTestId('audit-mode').textContent)).toEqual(['Test', 'Live', 'Live', '—']);
    const revoked = within(rows[0]!).getByTestId('audit-diff');
    expect(revoked.textContent).toContain('Changed:');
    expect(revoked.querySelector('[data-field="status"]')!.textContent).toBe('status before: valid → after: revoked');
    expect(revoked.querySelector('[data-field="revoked_at"] del')!.textContent).toBe('before: —');
    expect(revoked.querySelector('[data-field="revoked_at"] ins')!.textContent).toBe(`after: ${new Date('2026-11-27T12:00:00Z').toLocaleString()}`);
    const removed = within(rows[1]!).getByTestId('audit-diff');
    expect(removed.textContent).toContain('Removed:');
    expect(removed.querySelector('[data-field="role"]')!.textContent).toBe('role before: member');
    expect(within(rows[2]!).queryByTestId('audit-diff')).toBeNull(); // a create has no before
    expect(within(rows[3]!).queryByTestId('audit-diff')).toBeNull();
  });

  it('tells other roles that only owners read it', async () => {
    fakeApi({ 'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme', role: 'member' } }) } });
    renderApp('/audit-log');
    expect((await screen.findByText('Only owners read the audit log.')).className).toBe('notice');
  });
});
