/** What the home page reads: the certificate summary, credits, keys, endpoints and today's rides and deliveries. */
import { request } from '../../api/http';
import type { ApiKey, CertificateSchemas, Page, Ride, WebhookEndpoint } from '../../api/types';

export type CertificateSummary = CertificateSchemas['CertificateSummary'];

export const getSummary = (days = 30) => request<CertificateSummary>('certificate', '/summary', { query: { days } });
export const listCertificateKeys = () => request<Page<ApiKey>>('certificate', '/api-keys');
export const listMobilityKeys = () => request<Page<ApiKey>>('mobility', '/api-keys');
export const listEndpoints = () => request<Page<WebhookEndpoint>>('mobility', '/webhooks');

/** Jobs created since the start of today (local time), up to 100 (`has_more` says there are more). */
export const todaysJobs = (kind: 'rides' | 'deliveries') => {
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  return request<Page<Ride>>('mobility', `/${kind}`, { query: { limit: 100, created_after: new Date(start.getTime() - 1).toISOString() } });
};
