import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const ride = {
  id: 'ride_1',
  status: 'completed',
  tier: 'economy',
  pickup: { lat: 6.45, lng: 3.39, address: 'Marina' },
  dropoff: { lat: 6.5, lng: 3.35, address: null },
  fare: { amount: 250000, currency: 'NGN' },
  passenger: { name: 'Tunde', phone: '+2348000000000' },
  driver: { id: 'drv_1', name: 'Bola', phone: '+2348000000001', rating: 4.9, vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LAG-123', color: 'blue' } },
  vehicle_location: null,
  cancelled_by: null,
  livemode: true,
  created_at: '2026-11-26T09:00:00Z',
  updated_at: '2026-11-26T09:30:00Z',
};

const message = { id: 'whd_9', endpoint_id: 'whe_1', endpoint_url: 'https://partner.example/hooks', status: 'succeeded', attempts: 1, last_status_code: 200, created_at: '2026-11-26T09:30:00.120Z' };
const rideTimeline = {
  id: 'ride_1',
  status: 'completed',
  outcome: null,
  timeline: [
    { status: 'pending', at: '2026-11-26T09:00:00Z', events: [] },
    { status: 'accepted', at: '2026-11-26T09:05:00Z', events: [{ id: 'evt_1', type: 'ride.accepted', created_at: '2026-11-26T09:05:00Z', messages: [] }] },
    { status: 'completed', at: '2026-11-26T09:30:00Z', events: [{ id: 'evt_2', type: 'ride.completed', created_at: '2026-11-26T09:30:00Z', messages: [message] }] },
  ],
  price: { base: 50000, distance: 120000, time: 70000, surge: 0, adjustment: 10000, total: 250000, currency: 'NGN', distance_meters: 8000, duration_seconds: 1152 },
};

describe('rides', () => {
  it('filters the list by status, and shows a ride with its timeline, the events each change sent, its route and its fare in parts', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/rides': { body: { data: [ride], has_more: false, next_cursor: null } },
      'GET /dashboard/api/mobility/rides/ride_1': { body: ride },
      'GET /dashboard/api/mobility/rides/ride_1/timeline': { body: rideTimeline },
    });
    const { user } = renderApp('/rides');
    await user.selectOptions(await screen.findByLabelText('Status'), 'completed');
    expect(api.calls('GET /dashboard/api/mobility/rides').at(-1)!.query.get('status')).toBe('completed');
    await user.click(await screen.findByRole('link', { name: 'ride_1' }));
    expect((await screen.findByTestId('trip-details')).textContent).toContain('Bola — blue Toyota Corolla, LAG-123');

    // Oldest first, each with its absolute time (the viewer's zone) and how long ago.
    const timeline = await screen.findByTestId('status-history');
    const entries = [...timeline.querySelectorAll<HTMLElement>(':scope > li')];
    expect(entries.map((entry) => entry.querySelector('strong')?.textContent)).toEqual(['Pending', 'Accepted', 'Completed']);
    const completed = entries[2]!;
    expect(completed.querySelector('time')!.getAttribute('dateTime')).toBe('2026-11-26T09:30:00Z');
    expect(completed.querySelector('time')!.textContent).toBe(new Date('2026-11-26T09:30:00Z').toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }));
    expect(completed.textContent).toMatch(/\(.*ago\)/);
    expect(entries[1]!.textContent).toContain('ride.accepted');
    expect(entries[1]!.textContent).toContain('no endpoint subscribed, nothing sent');
    // The message that carried ride.completed links to it in its endpoint's message log.
    const link = within(completed).getByRole('link', { name: 'Message whd_9' });
    expect(link.getAttribute('href')).toBe('/dashboard/webhooks/whe_1?message=whd_9&event_type=ride.completed&at=2026-11-26T09%3A30%3A00.120Z');
    expect(within(completed).getByTestId('message-status').textContent).toBe('Delivered');

    // The route: pick-up and drop-off drawn (no tiles), named in its text alternative; completed, the line is solid.
    const map = screen.getByTestId('route-map');
    expect(map.getAttribute('aria-label')).toMatch(/^Route from the pick-up \(Marina\) to the drop-off \(6\.5, 3\.35\), \d+\.\d km in a straight line$/);
    expect(map.querySelector('line')!.getAttribute('class')).toBe('route-line done');
    expect(map.querySelector('image, foreignObject')).toBeNull();
    expect(screen.queryByTestId('route-position')).toBeNull();

    // The fare in parts, adding up to the total.
    const price = screen.getByTestId('price-breakdown');
    const row = (name: string) => within(price).getByRole('rowheader', { name }).closest('tr')!.textContent;
    const money = (amount: number) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'NGN' }).format(amount / 100);
    expect(row('Base')).toContain(money(50000));
    expect(row('Distance')).toContain('8.0 km by road');
    expect(row('Time')).toContain('19 min');
    expect(row('Surge')).toContain(money(0));
    expect(row('Total')).toContain(money(250000));
    expect(row('Total')).toContain('Currency NGN');
    expect(screen.queryByTestId('trip-outcome')).toBeNull();
    expect(api.calls('GET /dashboard/api/mobility/rides/ride_1/timeline')).toHaveLength(1);
  });

  it("opens the linked message in its endpoint's log: filtered to its type and time, its row open", async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/webhooks/whe_1': { body: { id: 'whe_1', url: 'https://partner.example/hooks', events: ['ride.completed'], status: 'enabled', created_at: '2026-11-26T08:00:00Z' } },
      'GET /dashboard/api/mobility/webhooks/whe_1/deliveries': {
        body: { data: [{ id: 'whd_9', event_id: 'evt_2', event_type: 'ride.completed', status: 'succeeded', attempts: 1, last_status_code: 200, created_at: message.created_at, payload: { id: 'evt_2' }, attempt_log: [] }], has_more: false },
      },
    });
    renderApp('/webhooks/whe_1?message=whd_9&event_type=ride.completed&at=2026-11-26T09%3A30%3A00.120Z');
    expect(await screen.findByTestId('message-payload')).toBeTruthy();
    expect(screen.getByTestId('delivery-whd_9').getAttribute('aria-current')).toBe('true');
    const query = api.calls('GET /dashboard/api/mobility/webhooks/whe_1/deliveries')[0]!.query;
    expect([query.get('event_type'), query.get('created_after'), query.get('created_before')]).toEqual(['ride.completed', '2026-11-26T09:29:59.120Z', '2026-11-26T09:30:01.120Z']);
  });
});

describe('deliveries', () => {
  const failed = {
    id: 'dlv_1',
    status: 'failed',
    weight_tier: 'small',
    fee: { amount: 150000, currency: 'NGN' },
    sender: { name: 'Ada', phone: '+2348000000002' },
    recipient: { name: 'Chidi', phone: '+2348000000003' },
    pickup: { lat: 6.45, lng: 3.39, address: '5 Warehouse Lane' },
    dropoff: { lat: 6.47, lng: 3.4, address: '12 Recipient Close' },
    courier: null,
    courier_location: null,
    proof_of_delivery: null,
    failure_reason: 'no_couriers_available',
    cancelled_by: null,
    tracking_url: null,
    livemode: true,
    created_at: '2026-11-26T09:00:00Z',
    updated_at: '2026-11-26T09:02:00Z',
  };

  it('says why a failed delivery failed and what happens next, above its details', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/deliveries/dlv_1': { body: failed },
      'GET /dashboard/api/mobility/deliveries/dlv_1/timeline': {
        body: {
          id: 'dlv_1',
          status: 'failed',
          outcome: { code: 'no_couriers_available', summary: 'No courier accepted within 2 minutes.', next_step: 'Nothing was charged; create the delivery again or widen the area (a pick-up where couriers are online).' },
          timeline: [
            { status: 'pending', at: '2026-11-26T09:00:00Z', events: [] },
            { status: 'failed', at: '2026-11-26T09:02:00Z', events: [{ id: 'evt_3', type: 'delivery.failed', created_at: '2026-11-26T09:02:00Z', messages: [] }] },
          ],
          price: { base: 50000, distance: 30000, time: 0, surge: 0, adjustment: 70000, total: 150000, currency: 'NGN', distance_meters: 3000, duration_seconds: null },
        },
      },
    });
    renderApp('/deliveries/dlv_1');
    const outcome = await screen.findByTestId('trip-outcome');
    expect(outcome.getAttribute('role')).toBe('note');
    expect(outcome.textContent).toContain('No courier accepted within 2 minutes.');
    expect(outcome.textContent).toContain('Nothing was charged; create the delivery again or widen the area');
    expect(outcome.textContent).toContain('no_couriers_available');
    expect(within(screen.getByTestId('price-breakdown')).getByRole('rowheader', { name: 'Time' }).closest('tr')!.textContent).toContain('Deliveries are not charged by time');
    expect(screen.getByTestId('route-map').querySelector('line')!.getAttribute('class')).toBe('route-line');
  });

  it("draws the courier's last position on the route while it is under way, and says so when the timeline cannot be read", async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/deliveries/dlv_1': {
        body: { ...failed, status: 'picked_up', failure_reason: null, courier_location: { lat: 6.46, lng: 3.395, heading: null, speed_kph: null, updated_at: '2026-11-26T09:10:00Z' } },
      },
      'GET /dashboard/api/mobility/deliveries/dlv_1/timeline': problem(503, 'unavailable', 'Try again'),
    });
    renderApp('/deliveries/dlv_1');
    expect(await screen.findByTestId('route-position')).toBeTruthy();
    expect(screen.getByTestId('route-map').getAttribute('aria-label')).toContain("the courier's last position");
    expect(await screen.findByText(/timeline/i, { selector: '[role="alert"], .form-error, p' })).toBeTruthy();
    expect(screen.queryByTestId('trip-outcome')).toBeNull();
  });
});
