/** Each page's `<title>`: "<page> · Partner dashboard", from the path (so every route, signed in or not, has its own). */
import { modeOfPath, pathInMode } from '../mode/data-mode';

const PRODUCT = 'Partner dashboard';

const PAGES: [RegExp, string][] = [
  [/^\/?$/, 'Overview'],
  [/^\/sign-in\/?$/, 'Sign in'],
  [/^\/sign-up\/?$/, 'Sign up'],
  [/^\/invite\/[^/]+\/?$/, 'Accept invitation'],
  [/^\/verify-email\/[^/]+\/?$/, 'Confirm email'],
  [/^\/reset-password\/?$/, 'Reset password'],
  [/^\/reset-password\/[^/]+\/?$/, 'Choose a new password'],
  [/^\/organizations\/new\/?$/, 'New organization'],
  [/^\/certificates\/?$/, 'Certificates'],
  [/^\/templates\/?$/, 'Templates'],
  [/^\/templates\/[^/]+\/?$/, 'Template'],
  [/^\/issuer\/?$/, 'Issuer identity'],
  [/^\/api-keys\/certificate\/?$/, 'Certificate API keys'],
  [/^\/api-keys\/mobility\/?$/, 'Mobility API keys'],
  [/^\/api-keys\/?$/, 'API keys'],
  [/^\/billing\/?$/, 'Credits & plan'],
  [/^\/rides\/?$/, 'Rides'],
  [/^\/rides\/[^/]+\/?$/, 'Ride'],
  [/^\/deliveries\/?$/, 'Deliveries'],
  [/^\/deliveries\/[^/]+\/?$/, 'Delivery'],
  [/^\/branding\/?$/, 'Tracking page branding'],
  [/^\/webhooks\/?$/, 'Webhooks'],
  [/^\/webhooks\/event-types\/?$/, 'Event catalog'],
  [/^\/webhooks\/[^/]+\/?$/, 'Webhook endpoint'],
  [/^\/drivers\/?$/, 'Drivers'],
  [/^\/event-passes\/?$/, 'Event passes'],
  [/^\/event-passes\/[^/]+\/?$/, 'Event pass program'],
  [/^\/members\/?$/, 'Members'],
  [/^\/audit-log\/?$/, 'Audit log'],
];

/** The title for a path below the app's base (`/rides/ride_1` → "Ride · Partner dashboard"; `/test/rides` → "Rides (test) · …"). */
export function titleFor(pathname: string): string {
  const test = modeOfPath(pathname) === 'test';
  const path = test ? pathInMode(pathname, 'live') : pathname;
  const page = PAGES.find(([pattern]) => pattern.test(path))?.[1] ?? 'Page not found';
  return `${page}${test ? ' (test)' : ''} · ${PRODUCT}`;
}
