import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, problem, type FakeRequest } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const template = (overrides: Record<string, unknown> = {}) => ({
  id: 'tpl_1',
  name: 'Course completion',
  status: 'active',
  version: 1,
  page_size: 'A4',
  orientation: 'landscape',
  colors: { background: '#FFFFFF', text: '#1F2933', accent: '#1D4ED8' },
  font: 'serif',
  text_blocks: [
    { text: 'Certificate of Completion', x: 0.1, y: 0.3, width: 0.8, font_size: 36, bold: true, align: 'center' },
    { text: '{{recipient_name}}', x: 0.1, y: 0.47, width: 0.8, font_size: 30, bold: true, align: 'center' },
    { text: '{{program_title}} — {{issue_date}}', x: 0.1, y: 0.62, width: 0.8, font_size: 18, bold: false, align: 'center' },
  ],
  custom_fields: [],
  qr_code: { x: 0.83, y: 0.7, size: 0.12 },
  logo_placement: { x: 0.44, y: 0.07, width: 0.12 },
  date_format: 'long',
  frame: { style: 'none' },
  signature_placement: { x: 0.08, y: 0.72, width: 0.2 },
  background_image: null,
  logo: { content_type: 'image/png', width: 200, height: 200, size_bytes: 900 },
  signature_image: null,
  created_at: '2026-11-26T10:00:00Z',
  updated_at: '2026-11-26T10:00:00Z',
  archived_at: null,
  ...overrides,
});

/** A PNG's first bytes are enough for a Blob the page turns into an object URL. */
const png = { headers: { 'content-type': 'image/png' }, body: 'PNG' };
let urls: string[];
let revoked: string[];

beforeEach(() => {
  urls = [];
  revoked = [];
  // jsdom has no object URLs: count what the preview makes and revokes.
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:preview-${urls.length + 1}`;
    urls.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
});

const previewImage = () => screen.findByTestId('template-preview-image') as Promise<HTMLImageElement>;

describe('the template designer (new template)', () => {
  it('creates a template with the issuer, date format, border and signature; the field refused is shown under its line', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const templates: object[] = [];
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates': () => ({ body: { data: templates, has_more: false, next_cursor: null } }),
      'POST /dashboard/api/certificate/templates/preview': png,
      'POST /dashboard/api/certificate/templates': (request) => {
        const body = request.body as { text_blocks: { text: string }[] };
        if (body.text_blocks[1]!.text.includes('{{grade}}'))
          return problem(422, 'validation_failed', 'The request is invalid', [{ path: 'text_blocks.1.text', message: 'uses an unknown placeholder {{grade}}' }]);
        templates.push(template());
        return { status: 201, body: template() };
      },
      'POST /dashboard/api/certificate/templates/tpl_1/archive': { body: template({ status: 'archived' }) },
    });
    const { user } = renderApp('/templates');
    await user.type(await screen.findByLabelText('Template name'), 'Course completion');
    await user.type(screen.getByLabelText('Issuer name (optional)'), 'Faculty of Engineering');
    await user.selectOptions(screen.getByLabelText('Date format'), '03/01/2026');
    await user.selectOptions(screen.getByLabelText('Border'), 'Double line');
    await user.upload(screen.getByLabelText('Signature image (PNG or JPEG, at most 1 MiB, optional)'), new File(['sig'], 'signature.png', { type: 'image/png' }));
    await user.type(screen.getByLabelText('Signature label (optional)'), 'Amaka Obi, Director');
    await user.clear(screen.getByLabelText('Recipient line'));
    await user.type(screen.getByLabelText('Recipient line'), '{{{{recipient_name}} {{{{grade}}');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    expect((await screen.findByTestId('error-text_blocks.1.text')).textContent).toBe('uses an unknown placeholder {{grade}}');

    await user.clear(screen.getByLabelText('Recipient line'));
    await user.type(screen.getByLabelText('Recipient line'), '{{{{recipient_name}}');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    // A notice links to the new template, and the form starts over: no name, no chosen file, the default lines.
    const notice = await screen.findByTestId('template-created');
    expect(notice.getAttribute('role')).toBe('status');
    expect(within(notice).getByRole('link', { name: 'Course completion' }).getAttribute('href')).toBe('/dashboard/templates/tpl_1');
    expect((screen.getByLabelText('Template name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Issuer name (optional)') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Signature label (optional)') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Signature image (PNG or JPEG, at most 1 MiB, optional)') as HTMLInputElement).files).toHaveLength(0);
    expect((screen.getByLabelText('Recipient line') as HTMLInputElement).value).toBe('{{recipient_name}}');
    expect(await screen.findAllByRole('link', { name: 'Course completion' })).toHaveLength(2);
    expect(api.calls('POST /dashboard/api/certificate/templates')[1]!.body).toEqual({
      name: 'Course completion',
      page_size: 'A4',
      orientation: 'landscape',
      font: 'serif',
      colors: { background: '#FFFFFF', text: '#1F2933', accent: '#1D4ED8' },
      date_format: 'us_numeric',
      frame: { style: 'double' },
      issuer_name: 'Faculty of Engineering',
      signature_label: 'Amaka Obi, Director',
      signature_image: { data: btoa('sig') },
      text_blocks: [
        expect.objectContaining({ text: 'Certificate of Completion', y: 0.3 }),
        expect.objectContaining({ text: '{{recipient_name}}', y: 0.47 }),
        expect.objectContaining({ text: '{{program_title}} — {{issue_date}}', y: 0.62 }),
      ],
      custom_fields: [],
      qr_code: { x: 0.83, y: 0.7, size: 0.12 },
      // Centred above the title (y 0.3): never beside it.
      logo_placement: { x: 0.44, y: 0.07, width: 0.12 },
      signature_placement: { x: 0.08, y: 0.72, width: 0.2 },
    });
    await user.click(screen.getByRole('button', { name: 'Archive' }));
    expect(api.calls('POST /dashboard/api/certificate/templates/tpl_1/archive')).toHaveLength(1);
  });

  it('draws the preview once typing stops, shows it is updating, and revokes each image it replaces and the last one on leaving', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/templates/preview': png,
    });
    const { user, unmount } = renderApp('/templates');
    expect((await screen.findByTestId('template-preview-status')).textContent).toBe('Drawing the preview…');
    await user.type(screen.getByLabelText('Template name'), 'Diploma');
    expect((await previewImage()).getAttribute('src')).toBe('blob:preview-1');
    expect(screen.getByTestId('template-preview-status').textContent).toBe('Preview up to date.');
    // The whole word typed before the pause: one drawing, of the last text.
    const drawn = api.calls('POST /dashboard/api/certificate/templates/preview');
    expect(drawn.map((request: FakeRequest) => (request.body as { name: string }).name)).toEqual(['Diploma']);

    await user.selectOptions(screen.getByLabelText('Border'), 'Single line');
    expect(screen.getByTestId('template-preview-status').textContent).toBe('Updating the preview…');
    await waitFor(() => expect(screen.getByTestId('template-preview-image').getAttribute('src')).toBe('blob:preview-2'));
    expect((api.calls('POST /dashboard/api/certificate/templates/preview').at(-1)!.body as { frame: unknown }).frame).toEqual({ style: 'single' });
    expect(revoked).toEqual(['blob:preview-1']);
    unmount();
    expect(revoked).toEqual(['blob:preview-1', 'blob:preview-2']);
  });

  it('asks again when the service cannot queue the drawing (503), and shows the drawing once it answers', async () => {
    let asked = 0;
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/templates/preview': () => (++asked === 1 ? problem(503, 'too_many_in_flight', 'Too many documents are being rendered; retry after 2 s') : png),
    });
    renderApp('/templates');
    await waitFor(() => expect(screen.getByTestId('template-preview-image').getAttribute('src')).toBe('blob:preview-1'), { timeout: 4000 });
    expect(api.calls('POST /dashboard/api/certificate/templates/preview')).toHaveLength(2);
    expect(screen.getByTestId('template-preview-status').textContent).toBe('Preview up to date.');
  });

  it('while the service is still drawing (202) sends the same draft again after Retry-After, then shows the drawing', async () => {
    let asked = 0;
    const rendering = { status: 202, headers: { 'retry-after': '1', 'cache-control': 'no-store' }, body: { status: 'rendering', retry_after: 1 } };
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/templates/preview': () => (++asked <= 2 ? rendering : png),
    });
    renderApp('/templates');
    expect((await screen.findByTestId('template-preview-status')).textContent).toBe('Drawing the preview…');
    // No image is made of the 202's JSON: the first object URL is the drawing's.
    await waitFor(() => expect(screen.getByTestId('template-preview-image').getAttribute('src')).toBe('blob:preview-1'), { timeout: 5000 });
    const calls = api.calls('POST /dashboard/api/certificate/templates/preview');
    expect(calls).toHaveLength(3);
    expect(calls[2]!.body).toEqual(calls[0]!.body);
    expect(urls).toEqual(['blob:preview-1']);
    expect(screen.getByTestId('template-preview-status').textContent).toBe('Preview up to date.');
    expect(screen.queryByTestId('template-preview-error')).toBeNull();
  });

  it('refuses an image over 1 MiB beside its field, without sending it', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates': { body: { data: [], has_more: false, next_cursor: null } },
      'POST /dashboard/api/certificate/templates/preview': png,
    });
    const { user } = renderApp('/templates');
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'scan.png', { type: 'image/png' });
    await user.upload(await screen.findByLabelText('Signature image (PNG or JPEG, at most 1 MiB, optional)'), big);
    expect(screen.getByTestId('error-signature_image').textContent).toBe('scan.png is 1.0 MiB: images are at most 1 MiB');
    await previewImage();
    expect(api.calls('POST /dashboard/api/certificate/templates/preview').every((request) => !('signature_image' in (request.body as object)))).toBe(true);
  });
});

describe('a template page', () => {
  it('edits the current version into version 2 with a live preview of the edit, and shows the history', async () => {
    let current = template();
    let versions = [{ version: 1, name: 'Course completion', current: true, created_at: '2026-11-26T10:00:00Z', certificates_issued: 3 }];
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates/tpl_1': () => ({ body: current }),
      'GET /dashboard/api/certificate/templates/tpl_1/versions': () => ({ body: { data: versions, has_more: false, next_before: null } }),
      'POST /dashboard/api/certificate/templates/tpl_1/preview': (request) =>
        (request.body as { issuer_name?: string | null }).issuer_name === 'x'.repeat(121)
          ? problem(422, 'validation_failed', 'The request is invalid', [{ path: 'issuer_name', message: 'must be at most 120 characters' }])
          : png,
      'PATCH /dashboard/api/certificate/templates/tpl_1': (request) => {
        current = template({ version: 2, name: (request.body as { name: string }).name, issuer_name: 'Faculty of Design' });
        versions = [{ version: 2, name: current.name, current: true, created_at: '2026-11-27T10:00:00Z', certificates_issued: 0 }, { ...versions[0]!, current: false }];
        return { body: current };
      },
    });
    const { user } = renderApp('/templates/tpl_1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Course completion' })).toBeTruthy();
    expect(document.title).toBe('Template · Partner dashboard');
    expect(within(await screen.findByTestId('template-version-1')).getByText('3')).toBeTruthy();
    expect(screen.getByText('Now: 200 × 200 PNG. Choose a file to replace it.')).toBeTruthy();

    // A refusal of the preview's check is shown beside the field it names.
    await user.type(screen.getByLabelText('Issuer name (optional)'), 'x'.repeat(121));
    expect((await screen.findByTestId('error-issuer_name')).textContent).toBe('must be at most 120 characters');
    expect(screen.getByTestId('template-preview-error').textContent).toContain('fix the fields marked above');
    await user.clear(screen.getByLabelText('Issuer name (optional)'));
    await user.type(screen.getByLabelText('Issuer name (optional)'), 'Faculty of Design');
    await user.clear(screen.getByLabelText('Template name'));
    await user.type(screen.getByLabelText('Template name'), 'Course completion 2027');
    await waitFor(() => expect(screen.queryByTestId('error-issuer_name')).toBeNull());
    await previewImage();
    // The edit's preview carries only what changes: the logo is kept by the service (not sent).
    const edit = api.calls('POST /dashboard/api/certificate/templates/tpl_1/preview').at(-1)!.body as Record<string, unknown>;
    expect(edit).toMatchObject({ name: 'Course completion 2027', issuer_name: 'Faculty of Design', signature_label: null });
    expect(edit).not.toHaveProperty('logo');

    await user.click(screen.getByRole('button', { name: 'Save as version 2' }));
    expect((await screen.findByTestId('template-saved')).textContent).toContain('Saved as version 2');
    expect(api.calls('PATCH /dashboard/api/certificate/templates/tpl_1')[0]!.body).toMatchObject({ name: 'Course completion 2027', issuer_name: 'Faculty of Design' });
    expect((await screen.findByTestId('template-version')).textContent).toBe('version 2');
    expect(within(await screen.findByTestId('template-version-2')).getByText('2 (current)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save as version 3' })).toBeTruthy();
  });

  it("keeps a template's text laid out through the API, sending only the other choices", async () => {
    const custom = template({ text_blocks: [{ text: 'Awarded to {{recipient_name}}', x: 0.05, y: 0.4, width: 0.9, font_size: 20, bold: false, align: 'left' }] });
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates/tpl_1': { body: custom },
      'GET /dashboard/api/certificate/templates/tpl_1/versions': { body: { data: [], has_more: false, next_before: null } },
      'POST /dashboard/api/certificate/templates/tpl_1/preview': png,
    });
    const { user } = renderApp('/templates/tpl_1');
    expect(await screen.findByTestId('api-layout')).toBeTruthy();
    expect(screen.queryByLabelText('Title line')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Date format'), '2026-03-01');
    await waitFor(() => expect((api.calls('POST /dashboard/api/certificate/templates/tpl_1/preview').at(-1)?.body as { date_format?: string } | undefined)?.date_format).toBe('iso'));
    const body = api.calls('POST /dashboard/api/certificate/templates/tpl_1/preview').at(-1)!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('text_blocks');
    expect(body).not.toHaveProperty('logo_placement');
  });
});
