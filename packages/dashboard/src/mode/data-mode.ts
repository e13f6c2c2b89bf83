/**
 * Live or test data, read from the dashboard's URL: test pages live under `/dashboard/test/…`, live ones under
 * `/dashboard/…`, so a new tab, a link or a bookmark keeps the mode. Data that exists in both modes (what `mk_test_…`
 * keys made is test data) is read and written through admin routes that take `?mode=test`: the list is MODAL_PATHS.
 */
export type DataMode = 'live' | 'test';

/** Where the app is served (the router's basename). */
export const APP_BASE = '/dashboard';
/** The prefix, below APP_BASE, of every test-mode page. */
export const TEST_PREFIX = '/test';

/** The admin paths of each back end whose data is live or test: their calls carry `?mode=test` in test mode. */
export const MODAL_PATHS: Record<string, RegExp | undefined> = {
  certificate: /^\/(certificates|api-keys|summary)(\/|$)/,
  mobility: /^\/(rides|deliveries|webhooks|events)(\/|$)/,
};

const IN_TEST = new RegExp(`^${TEST_PREFIX}(/|$)`);

/** The mode of a router path (below APP_BASE): `/test/rides` is test, `/rides` live. */
export function modeOfPath(pathname: string): DataMode {
  return IN_TEST.test(pathname) ? 'test' : 'live';
}

/** The same page in `mode`: `/rides/ride_1` ↔ `/test/rides/ride_1` (`/` ↔ `/test`). */
export function pathInMode(pathname: string, mode: DataMode): string {
  const page = modeOfPath(pathname) === 'test' ? pathname.slice(TEST_PREFIX.length) || '/' : pathname;
  if (mode === 'live') return page;
  return page === '/' ? TEST_PREFIX : `${TEST_PREFIX}${page}`;
}

/** The mode of the page the browser shows now. */
export function getDataMode(): DataMode {
  const pathname = globalThis.location?.pathname ?? '';
  return pathname.startsWith(`${APP_BASE}/`) ? modeOfPath(pathname.slice(APP_BASE.length)) : 'live';
}

/** `{ mode: 'test' }` for an admin path that has test data when acting in test mode; nothing otherwise (live is the default). */
export function modeQueryFor(service: string, path: string, mode: DataMode = getDataMode()): Record<string, string> {
  return mode === 'test' && MODAL_PATHS[service]?.test(path) ? { mode: 'test' } : {};
}
