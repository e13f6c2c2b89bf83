import { request } from '../../api/http';
import type { DriverProfile, NewDriver, Page } from '../../api/types';

export const listDrivers = () => request<Page<DriverProfile>>('mobility', '/drivers', { query: { limit: 100 } });
export const registerDriver = (body: NewDriver) => request<DriverProfile>('mobility', '/drivers', { method: 'POST', body });
export const disableDriver = (id: string) => request<DriverProfile>('mobility', `/drivers/${encodeURIComponent(id)}/disable`, { method: 'POST' });

export interface SignInCode {
  code: string;
  expires_at: string;
}
/** A one-time code the driver types into the driver app (planned admin route; the page says so while it is missing). */
export const issueSignInCode = (id: string) => request<SignInCode>('mobility', `/drivers/${encodeURIComponent(id)}/sign-in-codes`, { method: 'POST' });
