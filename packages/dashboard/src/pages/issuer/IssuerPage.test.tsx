import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const DID = 'did:web:platform.example:issuers:org_1';
const KEY_1 = `${DID}#key-one`;
const KEY_2 = `${DID}#key-two`;

const issuer = (overrides: Record<string, unknown> = {}) => ({
  did: DID,
  did_document_url: 'https://platform.example/issuers/org_1/did.json',
  name: 'Acme Learning',
  keys: [{ id: KEY_1, created_at: '2026-11-20T10:00:00Z', retired_at: null, current: true }],
  domain: null,
  domain_verified_at: null,
  identity: 'issuer identity not verified',
  pending_domain: null,
  ...overrides,
});

const started = {
  domain: 'academy.example.org',
  token: 'ppi-token-123',
  proof_url: 'https://academy.example.org/.well-known/partner-platform-issuer.txt',
  instructions: 'Serve the token as the only line of a text file at https://academy.example.org/.well-known/partner-platform-issuer.txt, then check the domain.',
};

const refresh = { 'POST /dashboard/api/auth/sessions/refresh': { body: session() } };

describe('Issuer identity', () => {
  it('shows the DID, its did.json, the keys and that the identity is not verified', async () => {
    fakeApi({ ...refresh, 'GET /dashboard/api/certificate/issuer': { body: issuer() } });
    renderApp('/issuer');
    expect((await screen.findByTestId('issuer-identity')).textContent).toContain('Issuer identity not verified');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Issuer identity');
    expect(screen.getByTestId('issuer-did').textContent).toBe(DID);
    expect(screen.getByRole('link', { name: 'DID document (did.json)' }).getAttribute('href')).toBe('https://platform.example/issuers/org_1/did.json');
    const [key] = screen.getAllByTestId('issuer-key');
    expect(within(key!).getByText(KEY_1)).toBeTruthy();
    expect(within(key!).getByText('Current')).toBeTruthy();
    // The issuer is the organization's, whatever the mode.
    expect(screen.getAllByTestId('data-mode-label').every((label) => label.textContent === 'Same in live and test')).toBe(true);
    expect(document.title).toBe('Issuer identity · Partner dashboard');
    expect(screen.getByRole('link', { name: 'Issuer identity' })).toBeTruthy();
  });

  it('shows a verified domain with its date, and a retired key beside the current one', async () => {
    fakeApi({
      ...refresh,
      'GET /dashboard/api/certificate/issuer': {
        body: issuer({
          domain: 'academy.example.org',
          domain_verified_at: '2026-11-25T09:00:00Z',
          identity: 'verified domain academy.example.org',
          keys: [
            { id: KEY_1, created_at: '2026-11-20T10:00:00Z', retired_at: '2026-11-26T10:00:00Z', current: false },
            { id: KEY_2, created_at: '2026-11-26T10:00:00Z', retired_at: null, current: true },
          ],
        }),
      },
    });
    renderApp('/issuer');
    const identity = await screen.findByTestId('issuer-identity');
    expect(identity.textContent).toContain('Verified domain academy.example.org, since ');
    expect(identity.querySelector('time')!.getAttribute('datetime')).toBe('2026-11-25T09:00:00Z');
    expect(identity.textContent).not.toContain('not verified');
    const rows = screen.getAllByTestId('issuer-key');
    expect(within(rows[0]!).getByText('Retired')).toBeTruthy();
    expect(within(rows[1]!).getByText('Current')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Verify a domain' }).querySelector('h2')!.textContent).toBe('Verify another domain');
  });

  it('starts a domain verification and shows the exact file URL and token, with copy buttons', async () => {
    const api = fakeApi({
      ...refresh,
      'GET /dashboard/api/certificate/issuer': { body: issuer() },
      'POST /dashboard/api/certificate/issuer/domain-verification': { status: 201, body: started },
    });
    const { user } = renderApp('/issuer');
    await user.type(await screen.findByLabelText('Domain'), 'academy.example.org');
    await user.click(screen.getByRole('button', { name: 'Start verification' }));
    expect((await screen.findByTestId('domain-proof-token')).textContent).toBe('ppi-token-123');
    expect(screen.getByTestId('domain-proof-url').textContent).toBe('https://academy.example.org/.well-known/partner-platform-issuer.txt');
    expect(api.calls('POST /dashboard/api/certificate/issuer/domain-verification')[0]!.body).toEqual({ domain: 'academy.example.org' });
    // The issuer is not modal: no `?mode=` on its calls.
    expect(api.calls('POST /dashboard/api/certificate/issuer/domain-verification')[0]!.query.toString()).toBe('');
    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe('ppi-token-123');
    await user.click(screen.getByRole('button', { name: 'Copy file URL' }));
    expect(await navigator.clipboard.readText()).toBe('https://academy.example.org/.well-known/partner-platform-issuer.txt');
  });

  it('shows a refused domain under the field and no token', async () => {
    fakeApi({
      ...refresh,
      'GET /dashboard/api/certificate/issuer': { body: issuer() },
      'POST /dashboard/api/certificate/issuer/domain-verification': problem(422, 'validation_failed', 'Request validation failed', [
        { path: 'domain', message: 'must be a domain name, such as academy.example.org' },
      ]),
    });
    const { user } = renderApp('/issuer');
    await user.type(await screen.findByLabelText('Domain'), 'not a domain');
    await user.click(screen.getByRole('button', { name: 'Start verification' }));
    expect((await screen.findByTestId('error-domain')).textContent).toBe('must be a domain name, such as academy.example.org');
    expect(screen.queryByTestId('domain-proof')).toBeNull();
  });

  it('says in words why a check failed, and what to do, and changes nothing', async () => {
    const api = fakeApi({
      ...refresh,
      'GET /dashboard/api/certificate/issuer': { body: issuer({ pending_domain: { domain: started.domain, token: started.token, proof_url: started.proof_url, started_at: '2026-11-29T10:00:00Z' } }) },
      'POST /dashboard/api/certificate/issuer/domain-verification/check': problem(422, 'domain_proof_mismatch', `The file at ${started.proof_url} does not hold this verification's token.`),
    });
    const { user } = renderApp('/issuer');
    // A verification started earlier (another tab, before a reload) is shown from the issuer.
    expect((await screen.findByTestId('domain-proof-token')).textContent).toBe('ppi-token-123');
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByTestId('domain-check-error')).textContent).toBe(`The file at ${started.proof_url} does not hold this verification's token.`);
    expect(screen.getByTestId('domain-check-advice').textContent).toBe('Put the token, exactly as shown, on its own line of the file and try again.');
    expect(screen.getByTestId('issuer-identity').textContent).toContain('Issuer identity not verified');
    expect(api.calls('POST /dashboard/api/certificate/issuer/domain-verification/check')).toHaveLength(1);
  });

  it('checks the domain and then shows it as verified', async () => {
    fakeApi({
      ...refresh,
      'GET /dashboard/api/certificate/issuer': { body: issuer() },
      'POST /dashboard/api/certificate/issuer/domain-verification': { status: 201, body: started },
      'POST /dashboard/api/certificate/issuer/domain-verification/check': {
        body: issuer({ domain: 'academy.example.org', domain_verified_at: '2026-11-29T10:05:00Z', identity: 'verified domain academy.example.org' }),
      },
    });
    const { user } = renderApp('/issuer');
    await user.type(await screen.findByLabelText('Domain'), 'academy.example.org');
    await user.click(screen.getByRole('button', { name: 'Start verification' }));
    await user.click(await screen.findByRole('button', { name: 'Check now' }));
    expect((await screen.findByTestId('domain-verified')).textContent).toBe('Verified domain academy.example.org: new credentials name it.');
    expect(screen.getByTestId('issuer-identity').textContent).toContain('Verified domain academy.example.org');
    expect(screen.queryByTestId('domain-proof')).toBeNull();
  });

  it('rotates the signing key once confirmed, and shows the new key', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = fakeApi({
      ...refresh,
      'GET /dashboard/api/certificate/issuer': { body: issuer() },
      'POST /dashboard/api/certificate/issuer/keys/rotate': {
        body: issuer({
          keys: [
            { id: KEY_1, created_at: '2026-11-20T10:00:00Z', retired_at: '2026-11-29T10:00:00Z', current: false },
            { id: KEY_2, created_at: '2026-11-29T10:00:00Z', retired_at: null, current: true },
          ],
        }),
      },
    });
    const { user } = renderApp('/issuer');
    expect(await screen.findByText(/Old keys stay published in the DID document, so credentials they signed keep verifying/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Rotate signing key' }));
    expect(confirm.mock.calls[0]![0]).toMatch(/keep verifying/);
    expect(await screen.findByText(KEY_2)).toBeTruthy();
    expect(api.calls('POST /dashboard/api/certificate/issuer/keys/rotate')).toHaveLength(1);
    const rows = screen.getAllByTestId('issuer-key');
    expect(within(rows[0]!).getByText('Retired')).toBeTruthy();
  });

  it('does not rotate when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const api = fakeApi({ ...refresh, 'GET /dashboard/api/certificate/issuer': { body: issuer() } });
    const { user } = renderApp('/issuer');
    await user.click(await screen.findByRole('button', { name: 'Rotate signing key' }));
    expect(api.calls('POST /dashboard/api/certificate/issuer/keys/rotate')).toHaveLength(0);
  });

  it('lets a member see the issuer but neither rotate nor verify', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme Learning', role: 'member' } }) },
      'GET /dashboard/api/certificate/issuer': { body: issuer() },
    });
    renderApp('/issuer');
    expect((await screen.findByTestId('issuer-identity')).textContent).toContain('Issuer identity not verified');
    expect(screen.queryByRole('button', { name: 'Rotate signing key' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Verify a domain' })).toBeNull();
    expect(screen.getByText('Only owners can rotate the signing key and verify a domain.')).toBeTruthy();
  });
});
