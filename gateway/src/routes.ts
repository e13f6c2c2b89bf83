export type Upstream = 'certificate' | 'mobility';

/**
 * CONTRACT section 1. `segment` matches the path itself or anything below it as whole segments
 * (`/api/v1/rides`, `/api/v1/rides/ride_1/cancel`, not `/api/v1/ridesx`); `prefix` needs the trailing slash.
 */
const ROUTE_TABLE: Array<{ path: string; kind: 'segment' | 'prefix'; upstream: Upstream }> = [
  { path: '/api/v1/credits', kind: 'segment', upstream: 'certificate' },
  { path: '/api/v1/verify/', kind: 'prefix', upstream: 'certificate' },
  { path: '/webhooks/payments/', kind: 'prefix', upstream: 'certificate' },
  { path: '/credentials/', kind: 'prefix', upstream: 'certificate' },
  { path: '/api/v1/estimates', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/rides', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/deliveries', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/webhooks', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/events', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/event-pass-programs', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/event-passes', kind: 'segment', upstream: 'mobility' },
  { path: '/api/v1/sandbox', kind: 'segment', upstream: 'mobility' },
  { path: '/driver/v1/', kind: 'prefix', upstream: 'mobility' },
  { path: '/track/', kind: 'prefix', upstream: 'mobility' },
];

/**
 * Paths that take no API key: their rate limit is the client address's, whatever key a request carries (a made-up
 * well-formed key would otherwise buy a fresh budget, as the upstream never refuses a key it does not read).
 */
export const KEYLESS_PREFIXES = ['/webhooks/payments/', '/credentials/', '/track/'];

/** Which upstream serves a request path (the query string already removed), or null for a 404. */
export function upstreamFor(pathname: string): Upstream | null {
  return routeFor(pathname)?.upstream ?? null;
}

/** The route table entry for a request path, or null for a 404; its `path` labels logs and metrics. */
export function routeFor(pathname: string): { path: string; upstream: Upstream } | null {
  for (const route of ROUTE_TABLE) {
    if (route.kind === 'prefix' ? pathname.startsWith(route.path) : pathname === route.path || pathname.startsWith(`${route.path}/`)) {
      return route;
    }
  }
  return null;
}

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
