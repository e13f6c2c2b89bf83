import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const driver = { id: 'drv_1', name: 'Bola', phone: '+2348000000001', kind: 'driver', tier: 'economy', available: false, status: 'active', serves_all_partners: false, disabled_at: null };

describe('drivers', () => {
  it('registers a driver (field errors under the vehicle fields), hands out a sign-in code and disables', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme', role: 'operator' } }) },
      'GET /dashboard/api/mobility/drivers': { body: { data: [driver] } },
      'POST /dashboard/api/mobility/drivers': (request) =>
        (request.body as { vehicle: { plate: string } }).vehicle.plate
          ? { status: 201, body: driver }
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
    const row = screen.getByTestId('driver-drv_1');
    await user.click(within(row).getByRole('button', { name: 'Sign-in code' }));
    expect((await screen.findByTestId('driver-sign-in-code')).textContent).toBe('HXRT-7K2M-QW4P');
    await user.click(within(row).getByRole('button', { name: 'Disable' }));
    expect(api.calls('POST /dashboard/api/mobility/drivers/drv_1/disable')).toHaveLength(1);
  });
});
