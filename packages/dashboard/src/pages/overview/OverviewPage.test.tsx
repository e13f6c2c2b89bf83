import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const today = new Date().toISOString().slice(0, 10);

function homeApi() {
  return fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/certificate/summary': { body: { credits_used_this_month: 3, certificates_issued: 7, days: [{ date: today, certificates_issued: 7, credits_used: 3 }] } },
    'GET /dashboard/api/certificate/credits': { body: { balance: 40 } },
    'GET /dashboard/api/certificate/api-keys': { body: { data: [] } },
    'GET /dashboard/api/mobility/api-keys': { body: { data: [] } },
    'GET /dashboard/api/certificate/certificates': { body: { data: [] } },
    'GET /dashboard/api/mobility/rides': { body: { data: [] } },
    'GET /dashboard/api/mobility/deliveries': { body: { data: [] } },
    // Two endpoints still enabled but failing now, one disabled by hand (not failing): the list alone cannot tell.
    'GET /dashboard/api/mobility/webhooks': {
      body: {
        data: [
          { id: 'whe_1', url: 'https://a.example/hooks', events: [], status: 'enabled', livemode: true, created_at: '2026-11-26T10:00:00Z' },
          { id: 'whe_2', url: 'https://b.example/hooks', events: [], status: 'enabled', livemode: true, created_at: '2026-11-26T10:00:00Z' },
          { id: 'whe_3', url: 'https://c.example/hooks', events: [], status: 'disabled', disabled_reason: 'Disabled by Ada', livemode: true, created_at: '2026-11-26T10:00:00Z' },
        ],
      },
    },
    'GET /dashboard/api/mobility/summary': {
      body: {
        mode: 'live',
        endpoint_id: null,
        days: [{ date: today, rides: 0, deliveries: 0, webhook_attempts: 10, webhook_succeeded: 2 }],
        totals: { rides: 0, deliveries: 0, webhook_attempts: 10, webhook_succeeded: 2 },
        failing_endpoints: 2,
      },
    },
  });
}

describe('home', () => {
  it('counts the webhook endpoints failing now, as the summary says', async () => {
    homeApi();
    renderApp('/');
    await screen.findByRole('heading', { name: 'Acme Learning' });
    await waitFor(() => expect(screen.getByTestId('failing-endpoints').textContent).toBe('2'));
  });

  it('draws the webhook success rate on a 0–100 % scale even when every day is low', async () => {
    homeApi();
    // jsdom lays nothing out: give the charts' containers the size a browser would, so recharts draws its axes.
    vi.stubGlobal('ResizeObserver', class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe() {
        this.callback([{ contentRect: { width: 400, height: 220 } } as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      disconnect() {}
    });
    renderApp('/');
    const chart = await screen.findByTestId('chart-webhooks');
    const ticks = () => Array.from(chart.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')).map((tick) => tick.textContent);
    await expect.poll(ticks).toContain('100%');
    expect(ticks()).toEqual(['0%', '25%', '50%', '75%', '100%']);
  });

  it('leads back home from any page: the brand and a Home section link', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/members': { body: { data: [] } },
      'GET /dashboard/api/certificate/invitations': { body: { data: [] } },
    });
    const { user } = renderApp('/members');
    await screen.findByRole('heading', { name: 'Members' });
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Partner dashboard' }));
    expect(await screen.findByRole('heading', { name: 'Acme Learning' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Home', current: 'page' })).toBeTruthy();
    await user.click(within(nav).getByRole('link', { name: 'Members' }));
    await screen.findByRole('heading', { name: 'Members' });
    await user.click(within(nav).getByRole('link', { name: 'Home' }));
    expect(await screen.findByRole('heading', { name: 'Acme Learning' })).toBeTruthy();
  });

  it('in test mode shows the test certificates\' numbers: the summary is asked for with mode=test', async () => {
    const api = homeApi();
    api.routes['GET /dashboard/api/certificate/summary'] = (request) =>
      request.query.get('mode') === 'test'
        ? { body: { credits_used_this_month: 0, certificates_issued: 2, days: [{ date: today, certificates_issued: 2, credits_used: 0 }] } }
        : { body: { credits_used_this_month: 3, certificates_issued: 7, days: [{ date: today, certificates_issued: 7, credits_used: 3 }] } };
    renderApp('/test');
    await screen.findByRole('heading', { name: 'Acme Learning' });
    await waitFor(() => expect(screen.getByTestId('certificates-issued').textContent).toBe('2'));
    expect(screen.getByTestId('credits-used').textContent).toBe('0');
    expect(api.calls('GET /dashboard/api/certificate/summary').map((sent) => sent.query.get('mode'))).toEqual(['test']);
    expect(api.calls('GET /dashboard/api/mobility/summary').map((sent) => sent.query.get('mode'))).toEqual(['test']);
  });
});
