import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const endpoint = { id: 'whe_1', url: 'https://partner.example/hooks', events: ['ride.completed', 'delivery.delivered'], status: 'enabled', created_at: '2026-11-26T10:00:00Z' };
const statsWindow = (name: '24h' | '7d', values: object) => ({ window: name, since: '2026-11-28T10:00:00Z', messages: 0, attempts: 0, succeeded: 0, failed: 0, success_rate: null, latency_ms: { p50: null, p95: null }, ...values });
const description = {
  components: {
    schemas: {
      Ride: { type: 'object', properties: { id: { type: 'string', pattern: '^ride_' }, status: { type: 'string' } } },
      Delivery: { type: 'object', properties: { id: { type: 'string', pattern: '^dlv_' }, status: { type: 'string' } } },
    },
  },
};

function endpointApi(stats: object) {
  return fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/mobility/webhooks/whe_1': { body: endpoint },
    'GET /dashboard/api/mobility/webhooks/whe_1/deliveries': { body: { data: [], has_more: false } },
    'GET /dashboard/api/mobility/webhooks/whe_1/stats': { body: stats },
    'GET /openapi.json': { body: description },
    'POST /dashboard/api/mobility/webhooks/whe_1/examples': (request) =>
      (request.body as { event_type: string }).event_type === 'delivery.delivered'
        ? { status: 202, body: { id: 'whd_9', event_id: 'evt_9', event_type: 'delivery.delivered', status: 'pending', attempts: 0, created_at: '2026-11-29T10:00:00Z' } }
        : problem(409, 'endpoint_disabled', 'The webhook endpoint is disabled; enable it to send an example event'),
  });
}

describe('endpoint statistics and example events', () => {
  it("shows the endpoint's success rate, p50/p95 latency and volume over 24 h and 7 d", async () => {
    endpointApi({
      endpoint_id: 'whe_1',
      computed_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      windows: [
        statsWindow('24h', { messages: 3, attempts: 4, succeeded: 2, failed: 2, success_rate: 0.5, latency_ms: { p50: 250, p95: 385 } }),
        statsWindow('7d', { messages: 4, attempts: 5, succeeded: 3, failed: 2, success_rate: 0.6, latency_ms: { p50: 300, p95: 880 } }),
      ],
    });
    renderApp('/webhooks/whe_1');
    const table = await screen.findByRole('table', { name: /Attempts to this endpoint/ });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Measure', 'Last 24 hours', 'Last 7 days']);
    const row = (name: string) => within(table).getByRole('rowheader', { name }).parentElement!;
    expect(within(row('Success rate')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['50.0 %', '60.0 %']);
    expect(within(row('Latency p50')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['250 ms', '300 ms']);
    expect(within(row('Latency p95')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['385 ms', '880 ms']);
    expect(within(row('Messages')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['3', '4']);
    expect(within(row('Attempts')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['4 (2 failed)', '5 (2 failed)']);
    // When it was computed: relative, with the absolute time and zone as the title.
    const time = table.querySelector('caption time')!;
    expect(time.textContent).toBe('5 minutes ago');
    expect(time.getAttribute('title')).toMatch(/\(.+\)$/);
  });

  it('says what to do when there were no attempts yet', async () => {
    endpointApi({ endpoint_id: 'whe_1', computed_at: new Date().toISOString(), windows: [statsWindow('24h', {}), statsWindow('7d', {})] });
    renderApp('/webhooks/whe_1');
    expect((await screen.findByTestId('endpoint-stats-empty')).textContent).toMatch(/Send a test or example event/);
    expect(screen.queryByTestId('endpoint-stats')).toBeNull();
  });

  it("sends the chosen type's catalog example to the endpoint, and shows a refusal", async () => {
    const api = endpointApi({ endpoint_id: 'whe_1', computed_at: new Date().toISOString(), windows: [statsWindow('24h', {}), statsWindow('7d', {})] });
    const { user } = renderApp('/webhooks/whe_1');
    const form = await screen.findByRole('form', { name: 'Send an example event' });
    // Only the types the endpoint receives are offered.
    const type = within(form).getByLabelText('Event type');
    expect(within(type).getAllByRole('option').map((option) => option.textContent)).toEqual(['ride.completed', 'delivery.delivered']);
    await user.selectOptions(type, 'delivery.delivered');
    await user.click(within(form).getByRole('button', { name: 'Send example event' }));
    expect((await within(form).findByRole('status')).textContent).toBe('Example delivery.delivered event queued (evt_9).');
    expect(api.calls('POST /dashboard/api/mobility/webhooks/whe_1/examples')[0]!.body).toEqual({ event_type: 'delivery.delivered', data: { id: 'dlv_01HZX3Q8M4', status: 'delivered' } });

    await user.selectOptions(type, 'ride.completed');
    await user.click(within(form).getByRole('button', { name: 'Send example event' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/disabled/);
  });
});

describe('event catalog: send example event', () => {
  it('sends the example of a catalog entry to the chosen enabled endpoint', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /openapi.json': { body: description },
      'GET /dashboard/api/mobility/webhooks': {
        body: {
          data: [
            { ...endpoint, id: 'whe_off', url: 'https://old.example/hooks', status: 'disabled' },
            endpoint,
            { ...endpoint, id: 'whe_2', url: 'https://staging.example/hooks', description: 'Staging' },
          ],
        },
      },
      'POST /dashboard/api/mobility/webhooks/whe_2/examples': { status: 202, body: { id: 'whd_2', event_id: 'evt_2', event_type: 'ride.completed', status: 'pending', attempts: 0, created_at: '2026-11-29T10:00:00Z' } },
    });
    const { user } = renderApp('/webhooks/event-types');
    const entry = await screen.findByTestId('event-ride.completed');
    await user.click(within(entry).getByText('Send example event', { selector: 'summary' }));
    const form = await within(entry).findByRole('form', { name: 'Send an example ride.completed event' });
    const target = await within(form).findByLabelText('Endpoint');
    // Disabled endpoints are not offered.
    await waitFor(() => expect(within(target).getAllByRole('option').map((option) => option.textContent)).toEqual(['https://partner.example/hooks', 'Staging (https://staging.example/hooks)']));
    await user.selectOptions(target, 'whe_2');
    await user.click(within(form).getByRole('button', { name: 'Send example event' }));
    expect((await within(form).findByRole('status')).textContent).toBe('Example ride.completed event queued (evt_2).');
    expect(api.calls('POST /dashboard/api/mobility/webhooks/whe_2/examples')[0]!.body).toEqual({ event_type: 'ride.completed', data: { id: 'ride_01HZX3Q8M4', status: 'completed' } });
  });

  it('says to register an endpoint when there is no enabled one', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /openapi.json': { body: description },
      'GET /dashboard/api/mobility/webhooks': { body: { data: [] } },
    });
    const { user } = renderApp('/webhooks/event-types');
    const entry = await screen.findByTestId('event-ride.completed');
    await user.click(within(entry).getByText('Send example event', { selector: 'summary' }));
    expect(await within(entry).findByText(/Register an enabled endpoint on the Webhooks page/)).toBeTruthy();
  });
});
