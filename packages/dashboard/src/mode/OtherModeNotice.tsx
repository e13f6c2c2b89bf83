/**
 * A detail page whose object is not in this mode (a live ride's URL opened in test mode, or the reverse): the object
 * is looked up in the other mode with the same session (so only the organization's own objects are ever found) and,
 * found there, the page says so with a link to itself in that mode, in place of "not found".
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../api/http';
import { pathInMode, type DataMode } from './data-mode';
import { useDataMode } from './useDataMode';

export interface OtherMode {
  /** The other mode when the object is there; null when it is not (or nothing was missing). */
  found: DataMode | null;
  /** The look-up is under way: the page's own 404 is not worth showing yet. */
  checking: boolean;
}

/** Looks the object up in the other mode when the page's own fetch answered 404 (`lookUp` rejects when it is not there either). */
export function useOtherMode(error: unknown, lookUp: (mode: DataMode) => Promise<unknown>): OtherMode {
  const { mode } = useDataMode();
  const { pathname } = useLocation();
  const other: DataMode = mode === 'test' ? 'live' : 'test';
  const missing = error instanceof ApiError && error.status === 404 && error.code !== 'route_not_found';
  const found = useQuery({ queryKey: ['in-other-mode', pathname], queryFn: () => lookUp(other).then(() => true), enabled: missing, retry: false });
  return { found: missing && found.data ? other : null, checking: missing && found.isPending };
}

/** The error a page shows for its own fetch: none while the other mode is asked, nor when the object is found there. */
export function errorUnlessInOtherMode(error: unknown, other: OtherMode): unknown {
  return other.found || other.checking ? null : error;
}

/** "This ride is live: switch to live." (or "… is in test mode: switch to test."), when found in the other mode. */
export function OtherModeNotice({ other, what }: { other: OtherMode; what: string }) {
  const { pathname } = useLocation();
  if (!other.found) return null;
  return (
    <p role="status" className="notice" data-testid="other-mode-notice">
      This {what} is {other.found === 'test' ? 'in test mode' : 'live'}: <Link to={pathInMode(pathname, other.found)}>switch to {other.found}</Link>.
    </p>
  );
}
