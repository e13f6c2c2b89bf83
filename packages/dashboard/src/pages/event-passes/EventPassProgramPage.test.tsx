import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const program = {
  id: 'evp_1',
  name: 'Lagos Tech Fest',
  status: 'open',
  budget: 500_000,
  currency: 'NGN',
  valid_from: '2026-12-01T08:00:00Z',
  valid_until: '2026-12-03T20:00:00Z',
  venue: { lat: 6.4281, lng: 3.4219, radius_m: 500, address: 'Landmark Centre' },
  applies_to: 'both',
  tiers: ['economy', 'xl'],
  rides_per_pass: 2,
  max_fare_per_ride: 5_000,
  usage: { passes_issued: 3, rides_redeemed: 0, amount_spent: 0, amount_reserved: 0, budget_left: 500_000 },
  created_at: '2026-11-26T10:00:00Z',
};

const pass = (id: string, code: string, created_at: string, reference: string | null, name: string | null = null) => ({
  id,
  program_id: 'evp_1',
  code,
  status: 'active',
  attendee: { reference, name },
  rides_allowed: 2,
  rides_used: 0,
  rides_left: 2,
  revoked_at: null,
  created_at,
});

function programApi() {
  // The API lists passes by id (random): not the order they were issued in.
  const passes = [
    pass('evpass_a', 'EVP-CCCC-3333', '2026-11-26T10:05:00Z', 'TICKET-0003'),
    pass('evpass_b', 'EVP-AAAA-1111', '2026-11-26T10:01:00Z', 'TICKET-0001'),
    pass('evpass_c', 'EVP-DDDD-4444', '2026-11-26T10:05:00Z', 'TICKET-0002'),
    pass('evpass_d', 'EVP-BBBB-2222', '2026-11-26T10:03:00Z', null, 'Anonymous'),
  ];
  return fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/mobility/event-pass-programs': { body: { data: [program], has_more: false } },
    'GET /dashboard/api/mobility/event-pass-programs/evp_1': { body: program },
    'GET /dashboard/api/mobility/event-pass-programs/evp_1/passes': () => ({ body: { data: passes, has_more: false } }),
    'POST /dashboard/api/mobility/event-pass-programs/evp_1/passes': (request) => {
      const [attendee] = (request.body as { attendees: { reference?: string; name?: string }[] }).attendees;
      const issued = pass('evpass_e', 'EVP-EEEE-5555', '2026-11-26T10:09:00Z', attendee?.reference ?? null, attendee?.name ?? null);
      passes.push(issued);
      return { status: 201, body: { data: [issued] } };
    },
  });
}

describe('an event pass program', () => {
  it('says in words which rides of the area a pass covers, and names the XL tier so', async () => {
    programApi();
    const { user } = renderApp('/event-passes/evp_1');
    const area = (await screen.findByText('Area')).nextElementSibling!;
    expect(area.textContent).toBe('Landmark Centre, within 500 m of 6.4281, 3.4219 (pick-up or drop-off)');
    await user.click(screen.getByRole('link', { name: '← All programs' }));
    const tiers = await screen.findByRole('group', { name: 'Tiers' });
    expect(within(tiers).getAllByRole('checkbox').map((box) => box.parentElement!.textContent!.trim())).toEqual(['Moto', 'Economy', 'Comfort', 'XL']);
  });

  it('shows each pass code once, with a copy button named after it', async () => {
    programApi();
    renderApp('/event-passes/evp_1');
    const row = await screen.findByTestId('pass-evpass_b');
    expect(row.textContent!.split('EVP-AAAA-1111')).toHaveLength(2);
    expect(within(row).getByRole('button', { name: 'Copy code EVP-AAAA-1111' }).textContent).toBe('Copy');
  });

  it('lists the passes in issue order, newest first (one batch by attendee reference)', async () => {
    programApi();
    renderApp('/event-passes/evp_1');
    await screen.findByTestId('pass-evpass_a');
    const codes = screen.getAllByTestId('pass-code').map((code) => code.textContent);
    expect(codes).toEqual(['EVP-DDDD-4444', 'EVP-CCCC-3333', 'EVP-BBBB-2222', 'EVP-AAAA-1111']);
  });

  it('empties the single-pass form after issuing, ready for the next attendee', async () => {
    const api = programApi();
    const { user } = renderApp('/event-passes/evp_1');
    await user.type(await screen.findByLabelText('Attendee reference'), 'TICKET-0009');
    await user.type(screen.getByLabelText('Attendee name'), 'Ngozi Okafor');
    await user.click(screen.getByRole('button', { name: 'Issue' }));
    expect((await screen.findByTestId('issued')).textContent).toBe('Issued 1 pass.');
    expect(api.calls('POST /dashboard/api/mobility/event-pass-programs/evp_1/passes')[0]!.body).toEqual({ attendees: [{ reference: 'TICKET-0009', name: 'Ngozi Okafor' }] });
    await waitFor(() => expect((screen.getByLabelText('Attendee reference') as HTMLInputElement).value).toBe(''));
    expect((screen.getByLabelText('Attendee name') as HTMLInputElement).value).toBe('');
    expect((await screen.findAllByTestId('pass-code'))[0]!.textContent).toBe('EVP-EEEE-5555');
  });

  it('in test mode shows the live program with every change off: its forms say event passes are live only, no close or revoke', async () => {
    const api = programApi();
    renderApp('/test/event-passes/evp_1');
    expect(await screen.findByTestId('spend-bar')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('pass-code')).toHaveLength(4));
    for (const name of ['Issue passes', 'Upload attendees CSV']) {
      const form = screen.getByRole('form', { name });
      expect(within(form).getByTestId('live-only-notice').textContent).toBe('Event passes are live only, so it is off in test mode: switch to live.');
      expect(within(form).getByRole('link', { name: 'switch to live' }).getAttribute('href')).toBe('/dashboard/event-passes/evp_1');
      expect(within(form).getByRole('button', { name: /Issue|Upload/ }).matches(':disabled')).toBe(true);
    }
    expect(screen.queryByRole('button', { name: 'Close program' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
    // Nothing carries mode=test to the service (it would refuse: event passes are live only) and nothing was changed.
    expect(api.requests.filter((sent) => sent.path.includes('event-pass')).map((sent) => `${sent.method} ${sent.query.get('mode')}`).every((line) => line === 'GET null')).toBe(true);
  });
});
