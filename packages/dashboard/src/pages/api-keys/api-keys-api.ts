/** The admin API-key routes, the same on both services. */
import { request, type Service } from '../../api/http';
import type { ApiKey, ApiKeyWithToken, MobilityScope, Page } from '../../api/types';

export type KeyService = Extract<Service, 'certificate' | 'mobility'>;

export const MOBILITY_SCOPES: readonly MobilityScope[] = [
  'estimates:read',
  'rides:write',
  'rides:read',
  'deliveries:write',
  'deliveries:read',
  'webhooks:manage',
  'event_passes:write',
  'event_passes:read',
];

export interface NewKey {
  name: string;
  scopes?: string[];
  mode?: 'live' | 'test';
  expires_at?: string;
}

export const listKeys = (service: KeyService) => request<Page<ApiKey>>(service, '/api-keys', { query: { limit: 100 } });
export const createKey = (service: KeyService, body: NewKey) => request<ApiKeyWithToken>(service, '/api-keys', { method: 'POST', body });
export const rotateKey = (service: KeyService, id: string, graceSeconds: number) =>
  request<ApiKeyWithToken>(service, `/api-keys/${encodeURIComponent(id)}/rotate`, {
    method: 'POST',
    body: graceSeconds > 0 ? { grace_seconds: graceSeconds } : {},
  });
export const revokeKey = (service: KeyService, id: string) => request<ApiKey>(service, `/api-keys/${encodeURIComponent(id)}/revoke`, { method: 'POST' });
export const deleteKey = (service: KeyService, id: string) => request<void>(service, `/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
