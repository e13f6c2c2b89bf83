import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
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
  created_at: '2026-11-26T09:00:00Z',
  updated_at: '2026-11-26T09:30:00Z',
};

describe('rides', () => {
  it('filters the list by status, and shows a ride with its status history oldest first', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/rides': { body: { data: [ride], has_more: false, next_cursor: null } },
      'GET /dashboard/api/mobility/rides/ride_1': { body: ride },
      'GET /dashboard/api/mobility/events': {
        body: {
          data: [
            { id: 'evt_2', type: 'ride.completed', created_at: '2026-11-26T09:30:00Z', data: { status: 'completed' } },
            { id: 'evt_1', type: 'ride.accepted', created_at: '2026-11-26T09:05:00Z', data: { status: 'accepted' } },
          ],
        },
      },
    });
    const { user } = renderApp('/rides');
    await user.selectOptions(await screen.findByLabelText('Status'), 'completed');
    expect(api.calls('GET /dashboard/api/mobility/rides').at(-1)!.query.get('status')).toBe('completed');
    await user.click(await screen.findByRole('link', { name: 'ride_1' }));
    expect((await screen.findByTestId('trip-details')).textContent).toContain('Bola — blue Toyota Corolla, LAG-123');
    const history = await screen.findByTestId('status-history');
    expect([...history.querySelectorAll('li')].map((item) => item.textContent?.split('— ')[1])).toEqual(['Accepted', 'Completed']);
    expect(api.calls('GET /dashboard/api/mobility/events')[0]!.query.get('object_id')).toBe('ride_1');
  });
});
