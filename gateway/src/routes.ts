export type Upstream = 'certificate' | 'mobility';

/**
 * `segment` matches the path itself or anything below it as whole segments
 * (`/api/v1/rides`, `/api/v1/rides/ride_1/cancel`, not `/api/v1/ridesx`); `prefix` needs the trailing slash; `exact` is
 * that one path only.
 */
const ROUTE_TABLE: Array<Route & { kind: 'segment' | 'prefix' | 'exact' }> = [
  { path: '/api/v1/credits', kind: 'segment', upstream: 'certificate' },
  { path: '/api/v1/verify/', kind: 'prefix', upstream: 'certificate' },
  { path: '/webhooks/payments/', kind: 'prefix', upstream: 'certificate' },
  { path: '/credentials/', kind: 'prefix', upstream: 'certificate' },
  // The verifiable credentials' issuer: its did:web document and the same key as a JWKS.
  { path: '/.well-known/did.json', kind: 'exact', upstream: 'certificate' },
  { path: '/.well-known/jwks.json', kind: 'exact', upstream: 'certificate' },
  // Each organization's own issuer: did:web:<host>:issuers:<org> resolves at /issuers/<org>/did.json.
  { path: '/issuers/', kind: 'prefix', upstream: 'certificate' },
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
  // The dashboard's back ends: the browser's same-origin paths, rewritten to the services' own prefixes.
  { path: '/dashboard/api/auth/', kind: 'prefix', upstream: 'certificate', rewriteTo: '/accounts/v1/' },
  { path: '/dashboard/api/certificate/', kind: 'prefix', upstream: 'certificate', rewriteTo: '/admin/v1/', adminToken: true },
  { path: '/dashboard/api/mobility/', kind: 'prefix', upstream: 'mobility', rewriteTo: '/admin/v1/', adminToken: true },
];

export interface Route {
  path: string;
  upstream: Upstream;
  /** The upstream's path prefix that replaces `path` (the query string is kept). */
  rewriteTo?: string;
  /** Proxied only with a valid admin (dashboard) token; refused with 401 at the gateway otherwise. */
  adminToken?: boolean;
}

/** `/dashboard` and everything below it that is not `/dashboard/api/…`: the dashboard's static files. */
export function isDashboardPage(pathname: string): boolean {
  return (pathname === '/dashboard' || pathname.startsWith('/dashboard/')) && !(pathname === '/dashboard/api' || pathname.startsWith('/dashboard/api/'));
}

/**
 * The upstream request target for a rewritten route: its prefix swapped, the rest (query included) untouched. A
 * path with a dot segment (`..`, `.`, encoded or not) or a backslash could climb out of the prefix: null (404).
 */
export function rewrittenUrl(route: Route, url: string): string | null {
  if (!route.rewriteTo) return url;
  const rest = url.slice(route.path.length);
  const restPath = pathOf(rest);
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(restPath) || /\\|%5c|%2f/i.test(restPath)) return null;
  return route.rewriteTo + rest;
}

/**
 * Paths that take no API key: their rate limit is the client address's, whatever key a request carries (a made-up
 * well-formed key would otherwise buy a fresh budget, as the upstream never refuses a key it does not read).
 */
// The dashboard's sign-in routes too: a made-up JWT-shaped Bearer must not buy sign-up or sign-in attempts a budget of their own.
export const KEYLESS_PREFIXES = ['/webhooks/payments/', '/credentials/', '/.well-known/', '/issuers/', '/track/', '/dashboard/api/auth/'];

/**
 * Exact paths that read no credential either: the driver app's sign-in and refresh take a password or refresh token in
 * the body and answer a bad one 400/401 without reading any Bearer; a made-up key there would buy a budget of its own.
 */
const KEYLESS_PATHS = new Set(['/driver/v1/sessions', '/driver/v1/sessions/refresh']);

/** A path whose requests always spend their client address's budget, whatever key they carry. */
export function isKeylessPath(pathname: string): boolean {
  return KEYLESS_PATHS.has(pathname) || KEYLESS_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/** Which upstream serves a request path (the query string already removed), or null for a 404. */
export function upstreamFor(pathname: string): Upstream | null {
  return routeFor(pathname)?.upstream ?? null;
}

/** The route table entry for a request path, or null for a 404; its `path` labels logs and metrics. */
export function routeFor(pathname: string): Route | null {
  for (const route of ROUTE_TABLE) {
    const matches =
      route.kind === 'prefix' ? pathname.startsWith(route.path) : route.kind === 'exact' ? pathname === route.path : pathname === route.path || pathname.startsWith(`${route.path}/`);
    if (matches) {
      return route;
    }
  }
  return null;
}

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
