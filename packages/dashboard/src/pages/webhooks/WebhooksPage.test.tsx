import { fireEvent, screen, within } from '@testing-library/react';
import { WEBHOOK_EVENT_TYPES } from '@platform/client/schema';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const endpoint = { id: 'whe_1', url: 'https://partner.example/hooks', events: ['ride.completed'], status: 'enabled', created_at: '2026-11-26T10:00:00Z' };
const delivery = (id: string, status: string) => ({
  id,
  event_id: `evt_${id}`,
  event_type: 'ride.completed',
  status,
  attempts: 2,
  last_status_code: status === 'failed' ? 500 : 200,
  created_at: '2026-11-26T10:01:00Z',
  attempt_log: [{ attempt: 1, status_code: 500, duration_ms: 12, error: null }],
});

describe('webhooks', () => {
  it('registers an endpoint, shows its secret once, and opens its delivery log with a retry of a failed delivery', async () => {
    const endpoints: (typeof endpoint)[] = [];
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/webhooks': () => ({ body: { data: endpoints } }),
      'POST /dashboard/api/mobility/webhooks': (request) => {
        if (!(request.body as { url: string }).url.startsWith('https://'))
          return problem(422, 'validation_failed', 'The request is invalid', [{ path: 'url', message: 'must be an https:// URL' }]);
        endpoints.push(endpoint);
        return { status: 201, body: { ...endpoint, secret: 'whsec_c2VjcmV0' } };
      },
      'GET /dashboard/api/mobility/webhooks/whe_1': { body: endpoint },
      'GET /dashboard/api/mobility/webhooks/whe_1/deliveries': { body: { data: [delivery('dlv_1', 'failed'), delivery('dlv_2', 'succeeded')], has_more: false } },
      'POST /dashboard/api/mobility/webhooks/whe_1/deliveries/dlv_1/replay': { body: delivery('dlv_1', 'pending') },
    });
    const { user } = renderApp('/webhooks');
    await user.type(await screen.findByLabelText('URL'), 'http://localhost/hooks');
    await user.click(screen.getByRole('button', { name: 'Register endpoint' }));
    expect((await screen.findByTestId('error-url')).textContent).toBe('must be an https:// URL');
    expect(screen.queryByTestId('webhook-secret')).toBeNull();

    await user.clear(screen.getByLabelText('URL'));
    await user.type(screen.getByLabelText('URL'), 'https://partner.example/hooks');
    await user.click(screen.getByRole('checkbox', { name: 'ride.completed' }));
    await user.click(screen.getByRole('button', { name: 'Register endpoint' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_c2VjcmV0');
    expect(api.calls('POST /dashboard/api/mobility/webhooks')[1]!.body).toEqual({ url: 'https://partner.example/hooks', events: ['ride.completed'] });

    await user.click(screen.getByRole('link', { name: 'Open the new endpoint and its delivery log' }));
    const failed = await screen.findByTestId('delivery-dlv_1');
    expect(within(failed).getByText('Failed')).toBeTruthy();
    // Any finished message can be replayed (as in Svix), the succeeded one too.
    expect(within(screen.getByTestId('delivery-dlv_2')).getByRole('button', { name: 'Replay' })).toBeTruthy();
    await user.click(within(failed).getByRole('button', { name: 'Replay' }));
    expect(api.calls('POST /dashboard/api/mobility/webhooks/whe_1/deliveries/dlv_1/replay')).toHaveLength(1);
  });

  it('offers every event type the API accepts, the opt-in location events too', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/webhooks': { body: { data: [] } },
      'POST /dashboard/api/mobility/webhooks': (request) => ({ status: 201, body: { ...endpoint, ...(request.body as object), secret: 'whsec_c2VjcmV0' } }),
    });
    const { user } = renderApp('/webhooks');
    const events = await screen.findByRole('group', { name: 'Events' }, { timeout: 5000 });
    expect(within(events).getAllByRole('checkbox').map((box) => (box as HTMLInputElement).value)).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(within(events).getByText(/every event except the opt-in location events/)).toBeTruthy();

    await user.type(screen.getByLabelText('URL'), 'https://partner.example/hooks');
    await user.click(within(events).getByRole('checkbox', { name: 'ride.location_updated' }));
    await user.click(within(events).getByRole('checkbox', { name: 'delivery.courier_location_updated' }));
    await user.click(screen.getByRole('button', { name: 'Register endpoint' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_c2VjcmV0');
    expect(api.calls('POST /dashboard/api/mobility/webhooks')[0]!.body).toEqual({
      url: 'https://partner.example/hooks',
      events: ['ride.location_updated', 'delivery.courier_location_updated'],
    });
  });

  it("shows an attempt's request headers, response headers and response body, labelled, in a full-width row below the message", async () => {
    const answered = {
      ...delivery('dlv_1', 'failed'),
      payload: { id: 'evt_dlv_1', type: 'ride.completed' },
      attempt_log: [
        {
          attempt: 1,
          status_code: 503,
          duration_ms: 49,
          error: 'HTTP 503',
          request_headers: { 'webhook-id': 'evt_dlv_1', 'content-type': 'application/json' },
          response_headers: { 'retry-after': '5' },
          response_body_excerpt: 'busy, try again later',
        },
      ],
    };
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/webhooks/whe_1': { body: endpoint },
      'GET /dashboard/api/mobility/webhooks/whe_1/deliveries': { body: { data: [answered], has_more: false } },
    });
    const { user } = renderApp('/webhooks/whe_1');
    const row = await screen.findByTestId('delivery-dlv_1', {}, { timeout: 5000 });
    await user.click(within(row).getByText('Payload and attempts'));
    const panel = screen.getByTestId('message-details');
    expect(row.nextElementSibling).toBe(panel);
    const cell = panel.querySelector('td')!;
    expect(cell.colSpan).toBe(screen.getAllByRole('columnheader').length);

    const attempt = within(cell).getByTestId('attempt-1');
    expect(within(attempt).getAllByText(/^Re(quest|sponse) /).map((label) => label.textContent)).toEqual(['Request headers', 'Response headers', 'Response body']);
    expect(within(attempt).getByLabelText('Request headers').textContent).toBe('webhook-id: evt_dlv_1\ncontent-type: application/json');
    expect(within(attempt).getByLabelText('Response headers').textContent).toBe('retry-after: 5');
    expect(within(attempt).getByLabelText('Response body').textContent).toBe('busy, try again later');
  });

  it('disables the endpoint and re-sends the events it missed since a time', async () => {
    let status = 'enabled';
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/webhooks/whe_1': () => ({ body: { ...endpoint, status } }),
      'PATCH /dashboard/api/mobility/webhooks/whe_1': (request) => {
        status = (request.body as { enabled: boolean }).enabled ? 'enabled' : 'disabled';
        return { body: { ...endpoint, status } };
      },
      'GET /dashboard/api/mobility/webhooks/whe_1/deliveries': { body: { data: [] } },
      'POST /dashboard/api/mobility/webhooks/whe_1/recover': (request) => ({
        body: { endpoint_id: 'whe_1', ...(request.body as object), queued: 4 },
      }),
    });
    const { user } = renderApp('/webhooks/whe_1');
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    expect((await screen.findByRole('button', { name: 'Enable' })).textContent).toBe('Enable');
    expect(screen.getByTestId('endpoint-status').textContent).toBe('Disabled');
    expect(api.calls('PATCH /dashboard/api/mobility/webhooks/whe_1')[0]!.body).toEqual({ enabled: false });

    fireEvent.change(screen.getByLabelText('Since'), { target: { value: '2026-11-25T08:00' } });
    await user.click(screen.getByRole('button', { name: 'Re-send' }));
    expect((await screen.findByText('4 events queued.')).textContent).toBe('4 events queued.');
    expect(api.calls('POST /dashboard/api/mobility/webhooks/whe_1/recover')[0]!.body).toEqual({
      since: new Date('2026-11-25T08:00').toISOString(),
      include_succeeded: false,
    });
  });

  it("edits the endpoint's URL, events, description and whether it is enabled, sending only what changed", async () => {
    let current = { ...endpoint, description: 'Old receiver' as string | null };
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/webhooks/whe_1': () => ({ body: current }),
      'PATCH /dashboard/api/mobility/webhooks/whe_1': (request) => {
        const body = request.body as { url?: string; events?: string[]; description?: string | null; enabled?: boolean };
        if (body.events?.length === 0) return problem(422, 'validation_failed', 'The request is invalid', [{ path: 'events', message: 'must list at least one event' }]);
        const { enabled, ...rest } = body;
        current = { ...current, ...rest, ...(enabled === undefined ? {} : { status: enabled ? 'enabled' : 'disabled' }) };
        return { body: current };
      },
      'GET /dashboard/api/mobility/webhooks/whe_1/deliveries': { body: { data: [] } },
    });
    const { user } = renderApp('/webhooks/whe_1');
    await user.click(await screen.findByRole('button', { name: 'Edit' }, { timeout: 5000 }));
    const form = screen.getByRole('form', { name: 'Edit the webhook endpoint' });
    expect((within(form).getByLabelText('URL') as HTMLInputElement).value).toBe('https://partner.example/hooks');
    expect((within(form).getByLabelText('Description (optional)') as HTMLInputElement).value).toBe('Old receiver');
    expect((within(form).getByRole('checkbox', { name: 'ride.completed' }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByRole('checkbox', { name: 'Enabled' }) as HTMLInputElement).checked).toBe(true);

    await user.click(within(form).getByRole('checkbox', { name: 'ride.completed' }));
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect((await within(form).findByTestId('error-events')).textContent).toBe('must list at least one event');

    await user.clear(within(form).getByLabelText('URL'));
    await user.type(within(form).getByLabelText('URL'), 'https://partner.example/v2/hooks');
    await user.click(within(form).getByRole('checkbox', { name: 'ride.cancelled' }));
    await user.click(within(form).getByRole('checkbox', { name: 'ride.location_updated' }));
    await user.clear(within(form).getByLabelText('Description (optional)'));
    await user.click(within(form).getByRole('checkbox', { name: 'Enabled' }));
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByText('Endpoint saved.')).getAttribute('role')).toBe('status');
    expect(api.calls('PATCH /dashboard/api/mobility/webhooks/whe_1')[1]!.body).toEqual({
      url: 'https://partner.example/v2/hooks',
      events: ['ride.cancelled', 'ride.location_updated'],
      description: null,
      enabled: false,
    });
    expect(screen.queryByRole('form', { name: 'Edit the webhook endpoint' })).toBeNull();
    expect(screen.getByText('https://partner.example/v2/hooks').tagName).toBe('DD');
    expect(screen.getByText('ride.cancelled, ride.location_updated').tagName).toBe('DD');
    expect(screen.getByTestId('endpoint-status').textContent).toBe('Disabled');
    expect(screen.queryByText('Old receiver')).toBeNull();
  });

  it('says so when the mobility service has no admin webhook routes yet', async () => {
    fakeApi({ 'POST /dashboard/api/auth/sessions/refresh': { body: session() } });
    renderApp('/webhooks');
    expect(await screen.findByText('The service does not offer webhook endpoints to the dashboard yet.')).toBeTruthy();
  });
});
