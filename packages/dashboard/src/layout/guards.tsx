/** Route guards: pages that need a session (and an organization), and pages only for visitors. */
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../auth/session';

export function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  if (session === undefined) return <p role="status">Loading…</p>;
  if (session === null) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Inside the organization's pages: an account without membership first creates an organization. */
export function RequireOrganization() {
  const { session } = useSession();
  if (!session?.access_token || !session.organization) return <Navigate to="/organizations/new" replace />;
  return <Outlet />;
}

export function VisitorsOnly() {
  const { session } = useSession();
  const location = useLocation();
  if (session === undefined) return <p role="status">Loading…</p>;
  if (session) return <Navigate to={(location.state as { from?: string } | null)?.from ?? '/'} replace />;
  return <Outlet />;
}
