import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, pdfText } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';

const PUBLIC_BASE_URL = 'https://certificates.example.test';
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
  org = newOrg(ctx, { orgName: 'Lagos <Code> Academy' });
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const asJson = (code: string) => app().get(`/credentials/${code}`).set('Accept', 'application/json');
const internalIds = (text: string, certificateId: string) => [/\bcert_[0-9a-z]{20}\b/, /\btpl_[0-9a-z]{20}\b/, new RegExp(org.org), new RegExp(certificateId)].filter((pattern) => pattern.test(text));

describe('the public credential, as JSON', () => {
  it('shows the certificate, its organization and where its documents are; no key needed, no internal id', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Adaeze Nwosu', expires_on: '2099-01-01' });
    const res = await asJson(certificate.verification_code).expect(200);
    expectToMatchRouteTable(res);
    const page = `${PUBLIC_BASE_URL}/credentials/${certificate.verification_code}`;
    expect(res.body).toEqual({
      verification_code: certificate.verification_code,
      status: 'valid',
      valid: true,
      recipient_name: 'Adaeze Nwosu',
      program_title: 'Analytical Engines 101',
      organization_name: 'Lagos <Code> Academy',
      // Without a template: the organization is the issuer, and dates are written as the built-in document writes them.
      issuer_name: 'Lagos <Code> Academy',
      issuer_verified: false,
      issuer_domain: null,
      issuer_identity: 'issuer identity not verified',
      issue_date: '2026-05-01',
      issue_date_text: '1 May 2026',
      expires_on: '2099-01-01',
      expires_on_text: '1 January 2099',
      certificate_number: certificate.certificate_number,
      revoked_at: null,
      revoked_on_text: null,
      page_url: page,
      document: { pdf_url: `${page}/document.pdf`, png_url: `${page}/document.png` },
    });
    expect(internalIds(res.text, certificate.id)).toEqual([]);
    expect(res.headers.vary).toMatch(/Accept/);
  });

  it('a revoked certificate says so and is not valid', async () => {
    const certificate = await issueCertificate(ctx, org);
    await app().post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const res = await asJson(certificate.verification_code).expect(200);
    expect(res.body).toMatchObject({ status: 'revoked', valid: false, revoked_at: expect.any(String) });
  });

  it('an expired certificate says so and is not valid', async () => {
    const certificate = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-01-01' });
    expect((await asJson(certificate.verification_code).expect(200)).body).toMatchObject({ status: 'expired', valid: false });
  });

  it('the code is found whatever its case, spaces and dashes', async () => {
    const certificate = await issueCertificate(ctx, org);
    const typed = certificate.verification_code.replace(/-/g, '').toLowerCase();
    expect((await asJson(typed).expect(200)).body.verification_code).toBe(certificate.verification_code);
  });

  it('an unknown or malformed code is a 404 in the form asked for', async () => {
    for (const code of ['ABCDEF-GHJKMN-PQRSTU', 'not-a-code', 'x'.repeat(100)]) {
      const json = await asJson(code).expect(404);
      expect(json.body).toMatchObject({ error: 'Certificate not found', code: 'not_found' });
      const html = await app().get(`/credentials/${code}`).set('Accept', 'text/html').expect(404);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
      expect(html.text).toContain('Certificate not found');
    }
  });
});

describe('the public credential page, as HTML', () => {
  it('escapes every value, carries Open Graph tags with absolute URLs, and allows nothing from elsewhere', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: '<img src=x onerror=alert(1)> Bola' });
    const res = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'text/html').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;img src=x onerror=alert(1)&gt; Bola');
    expect(res.text).toContain('Lagos &lt;Code&gt; Academy');
    const page = `${PUBLIC_BASE_URL}/credentials/${certificate.verification_code}`;
    expect(res.text).toContain(`<meta property="og:image" content="${page}/document.png">`);
    expect(res.text).toContain(`<meta property="og:url" content="${page}">`);
    expect(res.text).toMatch(/<meta property="og:title" content="[^"]*Bola – Analytical Engines 101">/);
    expect(res.text).toMatch(/<meta property="og:description" content="Certificate issued by Lagos &lt;Code&gt; Academy on 1 May 2026\. Status: valid\.">/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    // The one script is the platform's own; the one outside address is LinkedIn's add-to-profile link, which the page never loads.
    expect(res.text.match(/<script[^>]*>/g)).toEqual(['<script src="/credentials/assets/credentials.js" defer>']);
    expect(res.text.replace(/href="https:\/\/www\.linkedin\.com\/profile\/add\?[^"]*"/, '')).not.toMatch(/https?:\/\/(?!certificates\.example\.test)/);
    expect(csp).toContain("script-src 'self'");
    expect(internalIds(res.text, certificate.id)).toEqual([]);
  });

  it('a browser asking for anything gets the page', async () => {
    const certificate = await issueCertificate(ctx, org);
    const res = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
    expect(res.text).toContain('This certificate is valid.');
  });
});

describe('the public documents', () => {
  it('the PDF and PNG are served to anyone with the code', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Emeka Obi' });
    const pdf = await app().get(`/credentials/${certificate.verification_code}/document.pdf`).buffer(true).parse(binary).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pdf.body as Buffer)).toContain('Emeka Obi');
    const png = await app().get(`/credentials/${certificate.verification_code}/document.png`).buffer(true).parse(binary).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((png.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
  });

  it('an unknown code or format is a 404', async () => {
    await app().get('/credentials/ABCDEF-GHJKMN-PQRSTU/document.pdf').expect(404);
    const certificate = await issueCertificate(ctx, org);
    const res = await app().get(`/credentials/${certificate.verification_code}/document.gif`).expect(404);
    expect(res.body.code).toBe('not_found');
  });
});
