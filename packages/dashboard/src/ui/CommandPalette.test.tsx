import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../test/fake-api';
import { renderApp, session } from '../test/render';

const certificate = {
  id: 'cert_1',
  verification_code: 'HDYP6E-JZV679-SQU5CD',
  certificate_number: 'CERT-2026-0001',
  recipient_name: 'Grace Hopper',
  program_title: 'Compilers',
  issue_date: '2026-05-01',
  status: 'valid',
  created_at: '2026-05-01T10:00:00Z',
};

function api(mobility: 'answers' | 'fails' = 'answers') {
  return fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/certificate/search': (request) =>
      request.query.get('q')!.toUpperCase().startsWith('HDYP')
        ? { body: { query: request.query.get('q'), data: [{ kind: 'certificate', id: 'cert_1', label: 'CERT-2026-0001', detail: 'Grace Hopper, Compilers, code HDYP6E-JZV679-SQU5CD, valid', verification_code: 'HDYP6E-JZV679-SQU5CD' }] } }
        : { body: { query: request.query.get('q'), data: [] } },
    'GET /dashboard/api/mobility/search': mobility === 'fails'
      ? problem(503, 'database_busy', 'Busy')
      : (request) => ({ body: { query: request.query.get('q'), data: request.query.get('q') === 'ride_1' ? [{ kind: 'ride', id: 'ride_1', label: 'ride_1', detail: 'Ride, completed' }] : [] } }),
    'GET /dashboard/api/certificate/certificates': { body: { data: [certificate], has_more: false } },
  });
}

const PALETTE = 'Search pages, ids, codes and emails';
/** Presses the shortcut once the layout listens for it (it renders after the session is restored). */
async function pressShortcut(init: { key: string; ctrlKey?: boolean; metaKey?: boolean }) {
  await screen.findByRole('button', { name: /^Search/ });
  await waitFor(() => {
    if (!screen.queryByRole('dialog')) fireEvent.keyDown(document, init);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
}

const options = () => within(screen.getByRole('listbox')).queryAllByRole('option');

describe('command palette', () => {
  it('opens with Ctrl+K as a modal dialog with a combobox, filters the pages, moves with the arrow keys and closes with Escape, focus back', async () => {
    api();
    const { user } = renderApp('/');
    const trigger = await screen.findByRole('button', { name: /^Search/ });
    trigger.focus();
    await pressShortcut({ key: 'k', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Search and go to' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const combobox = within(dialog).getByRole('combobox', { name: 'Search pages, ids, codes and emails' });
    expect(document.activeElement).toBe(combobox);
    expect(combobox.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);

    await user.type(combobox, 'key');
    expect(options().map((o) => o.textContent)).toEqual(['Page Certificate API keys', 'Page Mobility API keys']);
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    expect(combobox.getAttribute('aria-activedescendant')).toBe(options()[0]!.id);
    await user.keyboard('{ArrowDown}');
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');
    expect(combobox.getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    await user.keyboard('{ArrowDown}');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('finds a certificate by its code in any case and opens the certificates page filtered to it', async () => {
    const fake = api();
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: /^Search/ }));
    const combobox = screen.getByRole('combobox', { name: PALETTE });
    await user.type(combobox, 'hdyp6e');
    const hit = await screen.findByRole('option', { name: /CERT-2026-0001/ }, { timeout: 3000 });
    expect(hit.textContent).toContain('Certificate');
    expect(hit.textContent).toContain('Grace Hopper');
    expect(screen.getByRole('status').textContent).toBe('1 match.');
    expect(fake.calls('GET /dashboard/api/certificate/search').at(-1)!.query.get('q')).toBe('hdyp6e');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Certificates', level: 1 })).toBeTruthy();
    expect((screen.getByLabelText('Search this page') as HTMLInputElement).value).toBe('CERT-2026-0001');
    expect(window.location.pathname + window.location.search).toBe('/dashboard/certificates?search=CERT-2026-0001');
  });

  it('shows the other service\'s matches when one service fails, and says when nothing matches', async () => {
    api('fails');
    const { user } = renderApp('/');
    await pressShortcut({ key: 'K', metaKey: true });
    await user.type(await screen.findByRole('combobox', { name: PALETTE }), 'hdyp');
    expect(await screen.findByRole('option', { name: /CERT-2026-0001/ }, { timeout: 3000 })).toBeTruthy();

    await user.clear(screen.getByRole('combobox', { name: PALETTE }));
    await user.type(screen.getByRole('combobox', { name: PALETTE }), 'zz');
    expect(await screen.findByText('Nothing matches “zz”.')).toBeTruthy();
    await user.clear(screen.getByRole('combobox', { name: PALETTE }));
    await user.type(screen.getByRole('combobox', { name: PALETTE }), 'r');
    expect(screen.getByRole('status').textContent).toBe('Type one more character to search ids, codes and emails.');
  });

  it('opens a ride found by id with a click', async () => {
    api();
    const { user } = renderApp('/');
    await pressShortcut({ key: 'k', ctrlKey: true });
    await user.type(await screen.findByRole('combobox', { name: PALETTE }), 'ride_1');
    await user.click(await screen.findByRole('option', { name: /ride_1/ }, { timeout: 3000 }));
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard/rides/ride_1'));
  });
});
