import { screen, waitFor, within } from '@testing-library/react';
import { unzipSync } from 'fflate';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, problem, type FakeReply, type FakeRoute } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const certificate = (n: number, overrides: Record<string, unknown> = {}) => ({
  id: `cert_${n}`,
  verification_code: `CODE-${n}`,
  certificate_number: `N-${n}`,
  recipient_name: `Recipient ${n}`,
  program_title: 'Engines',
  issue_date: '2026-05-01',
  expires_on: null,
  status: 'valid',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  revoked_at: null,
  template_id: null,
  template_version: null,
  custom_fields: {},
  livemode: true,
  recipient_email: n === 3 ? null : `r${n}@example.org`,
  delivery: null,
  ...overrides,
});

/** The certificates page over three certificates; `routes` adds or replaces routes. */
function page(routes: Record<string, FakeRoute> = {}) {
  const revoked = new Set<string>();
  const api = fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/certificate/certificates': () => ({
      body: { data: [1, 2, 3].map((n) => certificate(n, revoked.has(`cert_${n}`) ? { status: 'revoked' } : {})), has_more: false, next_cursor: null },
    }),
    ...Object.fromEntries(
      [1, 2, 3].map((n) => [
        `POST /dashboard/api/certificate/certificates/cert_${n}/revoke`,
        () => {
          revoked.add(`cert_${n}`);
          return { body: certificate(n, { status: 'revoked' }) };
        },
      ]),
    ),
    ...routes,
  });
  return { api, ...renderApp('/certificates') };
}

const row = (n: number) => within(screen.getByTestId(`certificate-cert_${n}`));
const report = () => screen.getByTestId('bulk-report');

/** What "Download ZIP" saves: the file name and its bytes. */
function captureDownloads() {
  const saved: { name: string; bytes: Promise<Uint8Array> }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    saved.push({ name: this.download, bytes: new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.readAsArrayBuffer(blob);
    }) });
  });
  return saved;
}

beforeEach(() => {
  vi.restoreAllMocks();
});

describe('bulk actions on certificates', () => {
  it('revokes the two certificates selected, after a confirm, and says so', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { api, user } = page();
    await user.click(await screen.findByRole('checkbox', { name: 'Select N-1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select N-2' }));
    expect(screen.getByTestId('bulk-count').textContent).toBe('2 certificates selected');
    await user.click(screen.getByRole('button', { name: 'Revoke selected' }));
    expect(confirm).toHaveBeenCalledWith('Revoke 2 certificates? Verification will answer "revoked" for each.');
    await waitFor(() => expect(report().textContent).toBe('Revoked 2 of 2 certificates.'));
    expect(api.calls('POST /dashboard/api/certificate/certificates/cert_1/revoke')).toHaveLength(1);
    expect(api.calls('POST /dashboard/api/certificate/certificates/cert_2/revoke')).toHaveLength(1);
    expect(api.calls('POST /dashboard/api/certificate/certificates/cert_3/revoke')).toHaveLength(0);
    // The list is read again: both now revoked, the selection cleared.
    await waitFor(() => expect(row(1).getByText('revoked')).toBeTruthy());
    expect(row(2).getByText('revoked')).toBeTruthy();
    expect(row(3).getByText('valid')).toBeTruthy();
    expect(screen.queryAllByRole('checkbox', { checked: true })).toHaveLength(0);
  });

  it('revokes nothing when the confirm is declined, and reports a certificate the service refused', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { api, user } = page({ 'POST /dashboard/api/certificate/certificates/cert_2/revoke': problem(409, 'conflict', 'The certificate cannot be revoked now') });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all certificates on this page' }));
    expect(screen.getAllByRole('checkbox', { checked: true })).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: 'Revoke selected' }));
    expect(api.requests.filter((request) => request.path.endsWith('/revoke'))).toHaveLength(0);

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Revoke selected' }));
    await waitFor(() => expect(report().textContent).toContain('Revoked 2 of 3 certificates; 1 failed.'));
    expect(within(report()).getByRole('listitem').textContent).toBe('N-2: The certificate cannot be revoked now');
  });

  it('resends the mail of the selected certificates that have a recipient email', async () => {
    const { api, user } = page({
      'POST /dashboard/api/certificate/certificates/cert_1/resend': { body: certificate(1) },
      'POST /dashboard/api/certificate/certificates/cert_2/resend': { body: certificate(2) },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select N-2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select N-3' }));
    await user.click(screen.getByRole('button', { name: 'Resend mail' }));
    await waitFor(() => expect(report().textContent).toBe('Mail resent for 1 of 1 certificate (1 skipped: no recipient email, or revoked).'));
    expect(api.requests.filter((request) => request.path.endsWith('/resend')).map((request) => request.path)).toEqual(['/dashboard/api/certificate/certificates/cert_2/resend']);
  });

  it('downloads the selected PDFs as one ZIP, waiting for a PDF still being drawn (202 + Retry-After)', async () => {
    const saved = captureDownloads();
    let drawing = true;
    const { api, user } = page({
      'GET /dashboard/api/certificate/certificates/cert_1/document': (): FakeReply => {
        if (drawing) {
          drawing = false;
          return { status: 202, headers: { 'retry-after': '1' }, body: { status: 'rendering' } };
        }
        return { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1 for N-1' };
      },
      'GET /dashboard/api/certificate/certificates/cert_2/document': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1 for N-2' },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select N-1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select N-2' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    await waitFor(() => expect(report().textContent).toMatch(/^Saved 2 PDFs in certificates-\d{4}-\d{2}-\d{2}\.zip\.$/), { timeout: 5000 });
    expect(api.calls('GET /dashboard/api/certificate/certificates/cert_1/document')).toHaveLength(2);
    expect(api.calls('GET /dashboard/api/certificate/certificates/cert_1/document')[0]!.query.get('format')).toBe('pdf');
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toMatch(/^certificates-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(await saved[0]!.bytes);
    const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
    expect(Object.keys(files).sort()).toEqual(['N-1.pdf', 'N-2.pdf']);
    // The bytes the API served (the fake serves its body as JSON text).
    expect(text(files['N-1.pdf'])).toBe(JSON.stringify('%PDF-1 for N-1'));
    expect(text(files['N-2.pdf'])).toBe(JSON.stringify('%PDF-1 for N-2'));
  });

  it('leaves a PDF that could not be fetched out of the ZIP and says why; saves nothing when none could be fetched', async () => {
    const saved = captureDownloads();
    const { user } = page({
      'GET /dashboard/api/certificate/certificates/cert_1/document': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1 for N-1' },
      'GET /dashboard/api/certificate/certificates/cert_2/document': problem(404, 'not_found', 'No such certificate'),
      'GET /dashboard/api/certificate/certificates/cert_3/document': problem(404, 'not_found', 'No such certificate'),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select N-1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select N-2' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    await waitFor(() => expect(report().textContent).toContain('Saved 1 PDF in'));
    expect(report().textContent).toContain('; 1 failed.');
    expect(within(report()).getByRole('listitem').textContent).toBe('N-2: No such certificate');
    expect(Object.keys(unzipSync(await saved[0]!.bytes))).toEqual(['N-1.pdf']);

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select N-3' }));
    await user.click(screen.getByRole('button', { name: 'Download ZIP' }));
    await waitFor(() => expect(report().textContent).toContain('No PDF could be fetched: nothing was saved.'));
    expect(saved).toHaveLength(1);
  });
});
