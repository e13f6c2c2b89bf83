/** The signed-in frame: header (organization switcher, sign out), navigation, and the page. */
import { Fragment, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { Link, NavLink } from '../mode/links';
import { useDataMode } from '../mode/useDataMode';
import { ModeSwitch, TestModeBanner } from '../mode/ModeSwitch';
import { OrganizationSwitcher } from './OrganizationSwitcher';
import { CommandPalette } from '../ui/CommandPalette';

export const SECTIONS: { to: string; label: string }[] = [
  { to: '/', label: 'Home' },
  { to: '/certificates', label: 'Certificates' },
  { to: '/templates', label: 'Templates' },
  { to: '/issuer', label: 'Issuer identity' },
  { to: '/api-keys/certificate', label: 'Certificate API keys' },
  { to: '/billing', label: 'Credits & plan' },
  { to: '/rides', label: 'Rides' },
  { to: '/deliveries', label: 'Deliveries' },
  { to: '/branding', label: 'Tracking page branding' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/api-keys/mobility', label: 'Mobility API keys' },
  { to: '/drivers', label: 'Drivers' },
  { to: '/event-passes', label: 'Event passes' },
  { to: '/members', label: 'Members' },
  { to: '/audit-log', label: 'Audit log' },
];

export function Layout() {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { mode } = useDataMode();
  const main = useRef<HTMLElement>(null);
  const firstPage = useRef(true);
  // After moving to another page, keyboard and screen-reader users continue at its content, not at the link they left.
  useEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else main.current?.focus({ preventScroll: false });
  }, [pathname]);
  const leave = async () => {
    await signOut().catch(() => undefined);
    navigate('/sign-in');
  };
  return (
    <div className={mode === 'test' ? 'layout test-mode' : 'layout'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TestModeBanner />
      <header className="topbar">
        <Link to="/" className="brand">
          Partner dashboard
        </Link>
        <OrganizationSwitcher />
        <CommandPalette pages={[...SECTIONS, { to: '/webhooks/event-types', label: 'Event catalog' }]} />
        <ModeSwitch />
        <span className="account" data-testid="account-email">
          {session?.account.email}
        </span>
        <button type="button" onClick={leave}>
          Sign out
        </button>
      </header>
      <nav aria-label="Sections" className="sidebar">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to} end={section.to === '/'}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} ref={main}>
        {/* A switch of mode opens the page afresh in the other mode (its lists and forms act on that mode's data). */}
        <Fragment key={mode}>
          <Outlet />
        </Fragment>
      </main>
    </div>
  );
}
