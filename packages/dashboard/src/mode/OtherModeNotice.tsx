/**
 * A detail page whose object is not in this mode (a live ride's URL opened in test mode, or the reverse): the object
 * is looked up in the other mode and, found there, the page links to itself in that mode.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../api/http';
import { pathInMode, type DataMode } from './data-mode';
import { useDataMode } from './useDataMode';

export function OtherModeNotice({ error, what, lookUp }: {
  /** The page's own fetch's error: only a 404 sends the look-up. */
  error: unknown;
  /** What the page shows ("ride"). */
  what: string;
  /** Fetches the object in `mode`; rejects when it is not there either. */
  lookUp: (mode: DataMode) => Promise<unknown>;
}) {
  const { mode } = useDataMode();
  const { pathname } = useLocation();
  const other: DataMode = mode === 'test' ? 'live' : 'test';
  const missing = error instanceof ApiError && error.status === 404 && error.code !== 'route_not_found';
  const found = useQuery({ queryKey: ['in-other-mode', pathname], queryFn: () => lookUp(other).then(() => true), enabled: missing, retry: false });
  if (!missing || !found.data) return null;
  return (
    <p role="status" className="notice" data-testid="other-mode-notice">
      This {what} is {other === 'test' ? 'in test mode' : 'live'}: <Link to={pathInMode(pathname, other)}>switch to {other}</Link>.
    </p>
  );
}
