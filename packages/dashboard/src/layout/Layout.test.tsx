import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { renderApp, session } from '../test/render';

describe('layout', () => {
  it('moves focus to the new page\'s content after following a section link', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/members': { body: { data: [] } },
      'GET /dashboard/api/certificate/invitations': { body: { data: [] } },
    });
    const { user } = renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    await user.click(screen.getAllByRole('link', { name: 'Members' }).find((link) => nav.contains(link))!);
    expect(await screen.findByRole('heading', { name: 'Members' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(screen.getByRole('link', { name: 'Members', current: 'page' })).toBeTruthy();
  });
});
