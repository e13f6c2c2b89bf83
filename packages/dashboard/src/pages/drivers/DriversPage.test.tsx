import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const driver = { id: 'drv_1', name: 'Bola', phone: '+2348000000001', kind: 'driver', tier: 'economy', available: false, status: 'active', serves_all_partners: false, disabled_at: null, online: false, last_seen_at: null, current_job: null };
const busy = { ...driver, id: 'drv_2', name: 'Chidi', available: true, online: true, last_seen_at: '2026-11-27T09:00:00Z', current_job: { id: 'ride_9', type: 'ride', status: 'in_progress' } };

describe('drivers', () => {
  it('registers a driver (field errors under the vehicle fields), hands out a sign-in code and disables', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme', role: 'operator' } }) },
      'GET /dashboard/api/mobility/drivers': { body: { data: [driver, busy] } },
      'POST /dashboard/api/mobility/drivers': (request) =>
        (request.body as { vehicle: { plate: string } }).vehicle.plate
          ? { status: 201, body: { ...driver, activation_code: 'FRST-CODE-0001', activation_code_expires_at: '2026-11-28T10:00:00Z' } }
          : problem(422, 'validation_failed', 'The request is invalid', [{ path: 'vehicle.plate', message: 'is required' }]),
      'POST /dashboard/api/mobility/drivers/drv_1/activation-codes': { status: 201, body: { activation_code: 'HXRT-7K2M-QW4P', expires_at: '2026-11-27T10:10:00Z' } },
      'POST /dashboard/api/mobility/drivers/drv_1/disable': { body: { ...driver, status: 'disabled' } },
    });
    const { user } = renderApp('/drivers');
    await user.type(await screen.findByLabelText('Name'), 'Bola');
    await user.type(screen.getByLabelText('Phone'), '+2348000000001');
    await user.type(screen.getByLabelText('Vehicle make'), 'Toyota');
    await user.type(screen.getByLabelText('Vehicle model'), 'Corolla');
    await user.type(screen.getByLabelText('Color'), 'blue');
    await user.click(screen.getByRole('button', { name: 'Register driver' }));
    expect((await screen.findByTestId('error-vehicle.plate')).textContent).toBe('is required');
    await user.type(screen.getByLabelText('Plate'), 'LAG-123');
    await user.click(screen.getByRole('button', { name: 'Register driver' }));
    await vi.waitFor(() => expect(api.calls('POST /dashboard/api/mobility/drivers')).toHaveLength(2));
    expect(api.calls('POST /dashboard/api/mobility/drivers')[1]!.body).toEqual({
      name: 'Bola', phone: '+2348000000001', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LAG-123', color: 'blue' },
    });
    // The first sign-in code, from the registration's answer, is shown once.
    expect((await screen.findByTestId('driver-sign-in-code')).textContent).toBe('FRST-CODE-0001');
    const row = screen.getByTestId('driver-drv_1');
    expect(within(row).getByTestId('presence').textContent).toBe('Offline');
    expect(within(row).getByTestId('last-seen').textContent).toBe('Never seen');
    const other = screen.getByTestId('driver-drv_2');
    expect(within(other).getByTestId('presence').textContent).toBe('Online');
    expect(within(other).getByTestId('current-job').textContent).toBe('Ride ride_9 · In progress');
    expect(within(other).getByRole('link', { name: 'ride_9' }).getAttribute('href')).toBe('/dashboard/rides/ride_9');
    await user.click(within(row).getByRole('button', { name: 'Sign-in code' }));
    expect((await screen.findByTestId('driver-sign-in-code')).textContent).toBe('HXRT-7K2M-QW4P');
    await user.click(within(row).getByRole('button', { name: 'Disable' }));
    expect(api.calls('POST /dashboard/api/mobility/drivers/drv_1/disable')).toHaveLength(1);
  });
});
