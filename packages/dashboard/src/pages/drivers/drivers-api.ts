import { request } from '../../api/http';
import type { ActivationCode, DriverProfile, FleetDriver, NewDriver, Page, RegisteredDriver } from '../../api/types';

export const listDrivers = () => request<Page<FleetDriver>>('mobility', '/drivers', { query: { limit: 100 } });
/** The answer carries the driver's first activation code, shown only in it. */
export const registerDriver = (body: NewDriver) => request<RegisteredDriver>('mobility', '/drivers', { method: 'POST', body });
export const disableDriver = (id: string) => request<DriverProfile>('mobility', `/drivers/${encodeURIComponent(id)}/disable`, { method: 'POST' });

/** A fresh one-time activation code the driver types into the driver app; earlier unused codes stop working and the driver's session ends. */
export const issueSignInCode = (id: string) => request<ActivationCode>('mobility', `/drivers/${encodeURIComponent(id)}/activation-codes`, { method: 'POST' });
