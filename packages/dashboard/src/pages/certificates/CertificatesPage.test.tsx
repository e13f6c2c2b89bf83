import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const certificate = (n: number, overrides: Record<string, unknown> = {}) => ({
  id: `cert_${n}`,
  verification_code: `CODE-${n}`,
  certificate_number: `N-${n}`,
  recipient_name: `Recipient ${n}`,
  program_title: n % 2 ? 'Engines' : 'Compilers',
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
  ...overrides,
});

const BAD = 'recipient_name,program_title,issue_date\nAda,Engines,2026-05-01\nGrace,Compilers,31/12/2026\n';
const GOOD = 'recipient_name,program_title,issue_date\nAda,Engines,2026-05-01\nGrace,Compilers,2026-12-31\n';

describe('certificates', () => {
  it('shows a rejected CSV row beside its error, then issues the fixed file', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/certificates/batch': (request) =>
        String(request.body).includes('31/12/2026')
          ? problem(422, 'validation_failed', 'The request is invalid', [{ path: 'certificates.1.issue_date', message: 'must be a date (YYYY-MM-DD)' }])
          : { status: 201, body: { data: [certificate(1), certificate(2)], has_more: false, next_cursor: null } },
    });
    const { user } = renderApp('/certificates');
    const input = await screen.findByLabelText('CSV file');
    await user.upload(input, new File([BAD], 'graduates.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const row = await screen.findByTestId('rejected-row-3');
    expect(within(row).getByText('31/12/2026')).toBeTruthy();
    expect(within(row).getByText('must be a date (YYYY-MM-DD)')).toBeTruthy();
    expect(screen.getByTestId('batch-errors').textContent).toContain('Nothing was issued');
    expect(api.calls('POST /dashboard/api/certificate/certificates/batch')[0]).toMatchObject({ body: BAD, headers: { 'content-type': 'text/csv' } });

    await user.upload(input, new File([GOOD], 'graduates.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect((await screen.findByTestId('batch-result')).textContent).toBe('Issued 2 certificates.');
    expect(screen.queryByTestId('batch-errors')).toBeNull();
  });

  it('issues one certificate, leaving out empty optional fields, and shows a refused field', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/certificates': (request) =>
        (request.body as { program_title?: string }).program_title
          ? { status: 201, body: certificate(7) }
          : problem(422, 'validation_failed', 'The request is invalid', [{ path: 'program_title', message: 'is required' }]),
    });
    const { user } = renderApp('/certificates');
    await user.type(await screen.findByLabelText('Recipient name'), 'Ada');
    await user.type(screen.getByLabelText('Issue date'), '2026-05-01');
    await user.click(screen.getByRole('button', { name: 'Issue certificate' }));
    expect((await screen.findByTestId('error-program_title')).textContent).toBe('is required');
    await user.type(screen.getByLabelText('Program title'), 'Engines');
    await user.click(screen.getByRole('button', { name: 'Issue certificate' }));
    expect((await screen.findByTestId('issued-certificate')).textContent).toContain('CODE-7');
    expect(api.calls('POST /dashboard/api/certificate/certificates')[1]!.body).toEqual({ recipient_name: 'Ada', program_title: 'Engines', issue_date: '2026-05-01' });
  });

  it('picks a template by name and version (its custom fields asked for) in the issue form, and for the CSV rows naming none', async () => {
    const templates = [
      { id: 'tpl_2', name: 'Diploma', version: 3, status: 'active', custom_fields: [{ key: 'grade', label: 'Grade', required: true }] },
      { id: 'tpl_1', name: 'Attendance', version: 1, status: 'active', custom_fields: [] },
    ];
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': { body: { data: [], has_more: false, next_cursor: null } },
      'GET /dashboard/api/certificate/templates': { body: { data: templates, has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/certificates': { status: 201, body: certificate(8, { template_id: 'tpl_2', template_version: 3 }) },
      'POST /dashboard/api/certificate/certificates/batch': { status: 201, body: { data: [certificate(1), certificate(2)], has_more: false, next_cursor: null } },
    });
    const { user } = renderApp('/certificates');
    const issueForm = within(await screen.findByRole('form', { name: 'Issue a certificate' }));
    await user.type(issueForm.getByLabelText('Recipient name'), 'Ada');
    await user.type(issueForm.getByLabelText('Program title'), 'Engines');
    await user.type(issueForm.getByLabelText('Issue date'), '2026-05-01');
    await screen.findAllByRole('option', { name: 'Diploma · version 3' });
    await user.selectOptions(issueForm.getByLabelText('Template (optional)'), 'Diploma · version 3');
    await user.type(issueForm.getByLabelText('Grade'), 'Distinction');
    await user.click(issueForm.getByRole('button', { name: 'Issue certificate' }));
    await screen.findByTestId('issued-certificate');
    expect(api.calls('POST /dashboard/api/certificate/certificates')[0]!.body).toEqual({
      recipient_name: 'Ada', program_title: 'Engines', issue_date: '2026-05-01', template_id: 'tpl_2', custom_fields: { grade: 'Distinction' },
    });
    expect(api.calls('GET /dashboard/api/certificate/templates')[0]!.query.get('status')).toBe('active');

    const batchForm = within(screen.getByRole('form', { name: 'Upload certificates CSV' }));
    await user.selectOptions(batchForm.getByLabelText('Template for rows without a template_id'), 'Attendance · version 1');
    await user.upload(batchForm.getByLabelText('CSV file'), new File([GOOD], 'graduates.csv', { type: 'text/csv' }));
    await user.click(batchForm.getByRole('button', { name: 'Upload' }));
    await screen.findByTestId('batch-result');
    expect(api.calls('POST /dashboard/api/certificate/certificates/batch')[0]!.body).toBe(
      'recipient_name,program_title,issue_date,template_id\nAda,Engines,2026-05-01,tpl_1\nGrace,Compilers,2026-12-31,tpl_1\n',
    );
  });

  it('pages through with the cursor, filters a page, and links the public page', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': (request) =>
        request.query.get('cursor') === 'c2'
          ? { body: { data: [certificate(3)], has_more: false, next_cursor: null } }
          : { body: { data: [certificate(1), certificate(2)], has_more: true, next_cursor: 'c2' } },
    });
    const { user } = renderApp('/certificates');
    expect(await screen.findByTestId('certificate-cert_1')).toBeTruthy();
    await user.type(screen.getByLabelText('Search this page'), 'compilers');
    expect(screen.queryByTestId('certificate-cert_1')).toBeNull();
    expect(screen.getByTestId('certificate-cert_2')).toBeTruthy();
    await user.clear(screen.getByLabelText('Search this page'));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    const row = await screen.findByTestId('certificate-cert_3');
    expect(within(row).getByRole('link', { name: 'Public page' }).getAttribute('href')).toBe('/credentials/CODE-3');
    expect(api.calls('GET /dashboard/api/certificate/certificates').at(-1)!.query.get('cursor')).toBe('c2');
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByTestId('certificate-cert_1')).toBeTruthy();
  });

  it('marks a test certificate "Test" beside its status, in test mode', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': { body: { data: [certificate(1, { livemode: false }), certificate(2)], has_more: false, next_cursor: null } },
      'GET /dashboard/api/certificate/templates': { body: { data: [], has_more: false, next_cursor: null } },
    });
    renderApp('/test/certificates');
    const test = await screen.findByTestId('certificate-cert_1');
    expect(within(test).getByTestId('certificate-test-badge').textContent).toBe('Test');
    expect(within(screen.getByTestId('certificate-cert_2')).queryByTestId('certificate-test-badge')).toBeNull();
  });

  it('shows each recipient mail\'s delivery (a bounce with the server\'s answer), resends it, and sends the email when issuing', async () => {
    let bounced = true;
    const bouncedCertificate = () =>
      certificate(1, {
        recipient_email: 'ada@example.org',
        delivery: bounced
          ? { status: 'bounced', last_error: '550 No such user here', sent_at: null }
          : { status: 'sent', last_error: null, sent_at: '2026-11-20T10:05:00Z' },
      });
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/certificates': () => ({ body: { data: [bouncedCertificate(), certificate(2, { recipient_email: null, delivery: null })], has_more: false, next_cursor: null } }),
      'POST /dashboard/api/certificate/certificates/cert_1/resend': () => {
        bounced = false;
        return { body: bouncedCertificate() };
      },
      'POST /dashboard/api/certificate/certificates': { status: 201, body: certificate(9, { recipient_email: 'grace@example.org', delivery: { status: 'pending', last_error: null, sent_at: null } }) },
    });
    const { user } = renderApp('/certificates');
    const delivery = await screen.findByTestId('delivery-cert_1');
    expect(delivery.textContent).toContain('ada@example.org');
    expect(delivery.textContent).toContain('mail bounced');
    expect(delivery.textContent).toContain('550 No such user here');
    expect(screen.queryByTestId('delivery-cert_2')).toBeNull();
    expect(within(screen.getByTestId('certificate-cert_2')).queryByRole('button', { name: /Resend mail/ })).toBeNull();

    await user.click(within(screen.getByTestId('certificate-cert_1')).getByRole('button', { name: 'Resend mail of N-1 to ada@example.org' }));
    await screen.findByText('mail sent');
    expect(api.calls('POST /dashboard/api/certificate/certificates/cert_1/resend')).toHaveLength(1);
    expect(screen.getByTestId('delivery-cert_1').textContent).not.toContain('550');

    const form = within(screen.getByRole('form', { name: 'Issue a certificate' }));
    await user.type(form.getByLabelText('Recipient name'), 'Grace');
    await user.type(form.getByLabelText('Recipient email (optional)'), 'grace@example.org');
    await user.type(form.getByLabelText('Program title'), 'Compilers');
    await user.type(form.getByLabelText('Issue date'), '2026-05-01');
    await user.click(form.getByRole('button', { name: 'Issue certificate' }));
    expect((await screen.findByTestId('issued-certificate')).textContent).toContain('A mail to grace@example.org is on its way.');
    expect(api.calls('POST /dashboard/api/certificate/certificates')[0]!.body).toEqual({ recipient_name: 'Grace', recipient_email: 'grace@example.org', program_title: 'Compilers', issue_date: '2026-05-01' });
  });
});
