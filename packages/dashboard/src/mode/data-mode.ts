/**
 * Live or test data: the dashboard-wide switch. Mobility's rides, deliveries, webhook endpoints (with their messages)
 * and events exist in both modes (test data is what `mk_test_…` keys made); their admin routes take `?mode=test`.
 */
export type DataMode = 'live' | 'test';

const STORAGE_KEY = 'dashboard.data-mode';
/** The mobility admin paths whose data is live or test. */
const MODAL_PATHS = /^\/(rides|deliveries|webhooks|events)(\/|$)/;

let current: DataMode = readStored();

function readStored(): DataMode {
  try {
    return globalThis.sessionStorage?.getItem(STORAGE_KEY) === 'test' ? 'test' : 'live';
  } catch {
    return 'live';
  }
}

export function getDataMode(): DataMode {
  return current;
}

export function setDataMode(mode: DataMode): void {
  current = mode;
  try {
    globalThis.sessionStorage?.setItem(STORAGE_KEY, mode);
  } catch {
    // Storage refused (private window): the switch still holds for this page's life.
  }
}

/** `{ mode: 'test' }` for a mobility path that has test data while test mode is on; nothing otherwise (live is the default). */
export function modeQueryFor(service: string, path: string): Record<string, string> {
  return service === 'mobility' && current === 'test' && MODAL_PATHS.test(path) ? { mode: 'test' } : {};
}
