import { request } from '../../api/http';
import type { ActivationCode, DriverProfile, NewDriver, Page } from '../../api/types';

export const listDrivers = () => request<Page<DriverProfile>>('mobility', '/drivers', { query: { limit: 100 } });
export const registerDriver = (body: NewDriver) => request<DriverProfile>('mobility', '/drivers', { method: 'POST', body });
export const disableDriver = (id: string) => request<DriverProfile>('mobility', `/drivers/${encodeURIComponent(id)}/disable`, { method: 'POST' });

/** A fresh one-time activation code the driver types into the driver app; earlier unused codes stop working and the driver's session ends. */
export const issueSignInCode = (id: string) => request<ActivationCode>('mobility', `/drivers/${encodeURIComponent(id)}/activation-codes`, { method: 'POST' });
