/** Renders the whole app at a path under /dashboard, as the browser would open it. */
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import userEvent from '@testing-library/user-event';
import type { Session } from '../api/accounts';
import { setAccessToken } from '../api/http';
import { App } from '../App';

/** `strict`: as main.tsx renders it in development, effects run twice. */
export function renderApp(path: string, { strict = false } = {}) {
  setAccessToken(null);
  window.history.pushState({}, '', `/dashboard${path}`);
  const user = userEvent.setup({ delay: null });
  return { user, ...render(strict ? <StrictMode><App /></StrictMode> : <App />) };
}

export function session(overrides: Partial<Session> = {}): Session {
  return {
    access_token: 'access-token-1',
    token_type: 'Bearer',
    expires_in: 900,
    account: { id: 'acc_1', email: 'ada@example.com', name: 'Ada' },
    organization: { id: 'org_1', name: 'Acme Learning', role: 'owner' },
    memberships: [{ organization_id: 'org_1', organization_name: 'Acme Learning', role: 'owner' }],
    ...overrides,
  };
}
