/**
 * Drivers (operators): register (the first sign-in code shown once), hand out a new sign-in code, disable; each
 * driver's presence (online/offline, last seen) and the job it is on.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../mode/links';
import type { FleetDriver } from '../../api/types';
import { useRole } from '../../auth/session';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { SecretBox } from '../../ui/SecretBox';
import { disableDriver, issueSignInCode, listDrivers } from './drivers-api';
import { RegisterDriverForm } from './RegisterDriverForm';
import { humanLabel } from '../../ui/labels';

interface ShownCode {
  name: string;
  code: string;
  expiresAt: string;
}

function Presence({ driver }: { driver: FleetDriver }) {
  if (driver.status === 'disabled') return <span className="badge">Disabled</span>;
  return (
    <>
      <span className={driver.online ? 'badge badge-active' : 'badge'} data-testid="presence">
        {driver.online ? 'Online' : 'Offline'}
      </span>
      <div className="muted" data-testid="last-seen">
        {driver.last_seen_at ? `Last seen ${formatDate(driver.last_seen_at)}` : 'Never seen'}
      </div>
    </>
  );
}

function CurrentJob({ job }: { job: FleetDriver['current_job'] }) {
  if (!job) return <span className="muted">Free</span>;
  const to = job.type === 'delivery' ? `/deliveries/${encodeURIComponent(job.id)}` : `/rides/${encodeURIComponent(job.id)}`;
  return (
    <span data-testid="current-job">
      {job.type === 'delivery' ? 'Delivery' : 'Ride'} <Link to={to}>{job.id}</Link>
      {job.status ? ` · ${humanLabel(job.status)}` : ''}
    </span>
  );
}

export function DriversPage() {
  const role = useRole();
  const canManage = role === 'operator' || role === 'platform_operator' || role === 'owner';
  const queryClient = useQueryClient();
  const [code, setCode] = useState<ShownCode | null>(null);
  const drivers = useQuery({ queryKey: ['drivers'], queryFn: listDrivers });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['drivers'] });
  const disable = useMutation({ mutationFn: disableDriver, onSuccess: refresh });
  const signIn = useMutation({
    mutationFn: async (driver: { id: string; name: string }) => {
      const issued = await issueSignInCode(driver.id);
      return { name: driver.name, code: issued.activation_code, expiresAt: issued.expires_at };
    },
    onSuccess: setCode,
  });
  return (
    <section>
      <h1>Drivers</h1>
      {canManage ? (
        <RegisterDriverForm
          onRegistered={(driver) => {
            // The registration's answer is the only place the first code appears: shown now, once.
            setCode({ name: driver.name ?? driver.id, code: driver.activation_code, expiresAt: driver.activation_code_expires_at });
            void refresh();
          }}
        />
      ) : (
        <p className="notice">Operators manage the fleet.</p>
      )}
      {code && (
        <SecretBox label={`Sign-in code for ${code.name} (valid until ${formatDate(code.expiresAt)})`} value={code.code} testId="driver-sign-in-code"
          onDismiss={() => setCode(null)} />
      )}
      <FormError error={disable.error ?? signIn.error} />
      <DataTable dataMode="shared" query={drivers} what="drivers" caption="Drivers and couriers" columns={['Name', 'Kind / tier', 'Vehicle', 'Presence', 'Job', 'Actions']}
        rows={drivers.data?.data} rowKey={(driver) => driver.id} empty="No drivers yet."
        renderRow={(driver) => (
          <tr data-testid={`driver-${driver.id}`}>
            <td>
              {driver.name ?? driver.id}
              <div className="muted">{driver.phone}</div>
            </td>
            <td>
              {humanLabel(driver.kind)} / {humanLabel(driver.tier)}
            </td>
            <td>{driver.vehicle ? `${driver.vehicle.make} ${driver.vehicle.model}, ${driver.vehicle.plate}` : '—'}</td>
            <td>
              <Presence driver={driver} />
            </td>
            <td>
              <CurrentJob job={driver.current_job} />
            </td>
            <td>
              {canManage && driver.status === 'active' && (
                <div className="actions">
                  <button type="button" onClick={() => signIn.mutate({ id: driver.id, name: driver.name ?? driver.id })}>
                    Sign-in code
                  </button>
                  <ConfirmButton className="danger" question={`Disable ${driver.name ?? driver.id}?`} onConfirm={() => disable.mutate(driver.id)}>
                    Disable
                  </ConfirmButton>
                </div>
              )}
            </td>
          </tr>
        )} />
    </section>
  );
}
