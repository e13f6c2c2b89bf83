/** Drivers (operators): register, hand out a sign-in code, disable. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ActivationCode } from '../../api/types';
import { useRole } from '../../auth/session';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { SecretBox } from '../../ui/SecretBox';
import { disableDriver, issueSignInCode, listDrivers } from './drivers-api';
import { RegisterDriverForm } from './RegisterDriverForm';
import { humanLabel } from '../../ui/labels';

export function DriversPage() {
  const role = useRole();
  const canManage = role === 'operator' || role === 'platform_operator' || role === 'owner';
  const queryClient = useQueryClient();
  const [code, setCode] = useState<(ActivationCode & { name: string }) | null>(null);
  const drivers = useQuery({ queryKey: ['drivers'], queryFn: listDrivers });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['drivers'] });
  const disable = useMutation({ mutationFn: disableDriver, onSuccess: refresh });
  const signIn = useMutation({
    mutationFn: async (driver: { id: string; name: string }) => ({ ...(await issueSignInCode(driver.id)), name: driver.name }),
    onSuccess: setCode,
  });
  return (
    <section>
      <h1>Drivers</h1>
      {canManage ? <RegisterDriverForm onRegistered={refresh} /> : <p className="notice">Operators manage the fleet.</p>}
      {code && (
        <SecretBox label={`Sign-in code for ${code.name} (valid until ${formatDate(code.expires_at)})`} value={code.activation_code} testId="driver-sign-in-code"
          onDismiss={() => setCode(null)} />
      )}
      <FormError error={disable.error ?? signIn.error} />
      <QueryState isLoading={drivers.isLoading} error={drivers.error} what="drivers" />
      {drivers.data && (
        <div className="table-wrap">
          <table>
            <caption>Drivers and couriers</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind / tier</th>
                <th scope="col">Vehicle</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {drivers.data.data.length === 0 && (
                <tr>
                  <td colSpan={5}>No drivers yet.</td>
                </tr>
              )}
              {drivers.data.data.map((driver) => (
                <tr key={driver.id} data-testid={`driver-${driver.id}`}>
                  <td>
                    {driver.name ?? driver.id}
                    <div className="muted">{driver.phone}</div>
                  </td>
                  <td>
                    {driver.kind} / {driver.tier}
                  </td>
                  <td>{driver.vehicle ? `${driver.vehicle.make} ${driver.vehicle.model}, ${driver.vehicle.plate}` : '—'}</td>
                  <td>{humanLabel(driver.status)}{driver.available ? ', available' : ''}</td>
                  <td>
                    {canManage && driver.status === 'active' && (
                      <div className="actions">
                        <button type="button" onClick={() => signIn.mutate({ id: driver.id, name: driver.name ?? driver.id })}>
                          Sign-in code
                        </button>
                        <button type="button" className="danger" onClick={() => window.confirm(`Disable ${driver.name ?? driver.id}?`) && disable.mutate(driver.id)}>
                          Disable
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
