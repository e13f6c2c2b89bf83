/**
 * The router's links, kept in the current mode: inside the organization's pages `to="/rides"` opens `/test/rides`
 * in test mode. Pages import Link, NavLink, Navigate and useNavigate from here, never from react-router.
 */
import { useCallback } from 'react';
import {
  Link as RouterLink,
  Navigate as RouterNavigate,
  NavLink as RouterNavLink,
  useNavigate as useRouterNavigate,
  type LinkProps,
  type NavigateOptions,
  type NavigateProps,
  type NavLinkProps,
  type To,
} from 'react-router';
import { pathInMode } from './data-mode';
import { useDataMode } from './useDataMode';

/** `to` in `mode` when it is an absolute path; relative paths already stay below the current one. */
function inMode(to: To, mode: 'live' | 'test'): To {
  if (typeof to === 'string') return to.startsWith('/') ? pathInMode(to, mode) : to;
  return to.pathname?.startsWith('/') ? { ...to, pathname: pathInMode(to.pathname, mode) } : to;
}

export function Link({ to, ...props }: LinkProps) {
  const { mode } = useDataMode();
  return <RouterLink to={inMode(to, mode)} {...props} />;
}

export function NavLink({ to, ...props }: NavLinkProps) {
  const { mode } = useDataMode();
  return <RouterNavLink to={inMode(to, mode)} {...props} />;
}

export function Navigate({ to, ...props }: NavigateProps) {
  const { mode } = useDataMode();
  return <RouterNavigate to={inMode(to, mode)} {...props} />;
}

export function useNavigate(): (to: To, options?: NavigateOptions) => void {
  const navigate = useRouterNavigate();
  const { mode } = useDataMode();
  return useCallback((to: To, options?: NavigateOptions) => void navigate(inMode(to, mode), options), [navigate, mode]);
}
