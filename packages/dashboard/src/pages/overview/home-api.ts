/** What the home page reads: the certificate summary, credits, keys, endpoints and today's rides and deliveries. */
import { request } from '../../api/http';
import type { ApiKey, CertificateSchemas, MobilitySchemas, Page, Ride, WebhookEndpoint } from '../../api/types';
import { getDataMode } from '../../mode/data-mode';

export type CertificateSummary = CertificateSchemas['CertificateSummary'];

export const getSummary = (days = 30) => request<CertificateSummary>('certificate', '/summary', { query: { days } });
export type MobilitySummary = MobilitySchemas['MobilitySummary'];

/** Rides, deliveries and webhook attempts per UTC day in the mode shown (all endpoints, or one). */
export const getMobilitySummary = (days = 30, endpointId?: string) =>
  request<MobilitySummary>('mobility', '/summary', { query: { days, mode: getDataMode(), endpoint_id: endpointId } });

/** Each day's share of webhook attempts answered 2xx, in per cent (no bar on a day without attempts). */
export function successRates(summary: MobilitySummary): { date: string; success_rate: number | null; webhook_attempts: number }[] {
  return summary.days.map((day) => ({
    date: day.date,
    webhook_attempts: day.webhook_attempts,
    success_rate: day.webhook_attempts ? Math.round((day.webhook_succeeded / day.webhook_attempts) * 100) : null,
  }));
}

export const listCertificateKeys = () => request<Page<ApiKey>>('certificate', '/api-keys');
export const listMobilityKeys = () => request<Page<ApiKey>>('mobility', '/api-keys');
export const listEndpoints = () => request<Page<WebhookEndpoint>>('mobility', '/webhooks');

/** Jobs created since the start of today (local time), up to 100 (`has_more` says there are more). */
export const todaysJobs = (kind: 'rides' | 'deliveries') => {
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  return request<Page<Ride>>('mobility', `/${kind}`, { query: { limit: 100, created_after: new Date(start.getTime() - 1).toISOString() } });
};
