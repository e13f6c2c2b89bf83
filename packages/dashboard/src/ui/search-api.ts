/**
 * The command palette's search: both services' `GET /admin/v1/search` (the organization's certificates and members;
 * its rides, deliveries, event passes and webhook endpoints), exact and prefix matches, in the page's mode. A service
 * that cannot answer leaves its results out; the other's still show.
 */
import { request } from '../api/http';
import type { CertificateSchemas, MobilitySchemas } from '../api/types';

type CertificateResult = CertificateSchemas['CertificateSearchResult'];
type MobilityResult = MobilitySchemas['MobilitySearchResult'];

export interface SearchHit {
  key: string;
  /** "Certificate", "Ride", …: the kind, shown before the label. */
  kind: string;
  label: string;
  detail: string | null;
  /** Where choosing it goes, inside the dashboard. */
  to: string;
}

const KIND_LABELS: Record<CertificateResult['kind'] | MobilityResult['kind'], string> = {
  certificate: 'Certificate',
  member: 'Member',
  ride: 'Ride',
  delivery: 'Delivery',
  event_pass: 'Event pass',
  webhook_endpoint: 'Webhook endpoint',
};

const enc = encodeURIComponent;

function targetOf(result: CertificateResult | MobilityResult): string {
  switch (result.kind) {
    case 'certificate':
      return `/certificates?search=${enc(result.label)}`;
    case 'member':
      return `/members?filter=${enc(result.label)}`;
    case 'ride':
      return `/rides/${enc(result.id)}`;
    case 'delivery':
      return `/deliveries/${enc(result.id)}`;
    case 'event_pass':
      return `/event-passes/${enc(result.program_id ?? '')}`;
    case 'webhook_endpoint':
      return `/webhooks/${enc(result.id)}`;
  }
}

const hitOf = (result: CertificateResult | MobilityResult): SearchHit => ({
  key: `${result.kind}-${result.id}`,
  kind: KIND_LABELS[result.kind],
  label: result.label,
  detail: result.detail,
  to: targetOf(result),
});

/** Both services' matches for `q` (at most `limit` of each kind), certificates first. */
export async function searchEverything(q: string, limit = 5, signal?: AbortSignal): Promise<SearchHit[]> {
  const [certificates, mobility] = await Promise.allSettled([
    request<{ data: CertificateResult[] }>('certificate', '/search', { query: { q, limit }, signal }),
    request<{ data: MobilityResult[] }>('mobility', '/search', { query: { q, limit }, signal }),
  ]);
  const settled = [certificates, mobility];
  if (settled.every((result) => result.status === 'rejected')) throw (certificates as PromiseRejectedResult).reason;
  return settled.flatMap((result) => (result.status === 'fulfilled' ? result.value.data.map(hitOf) : []));
}
