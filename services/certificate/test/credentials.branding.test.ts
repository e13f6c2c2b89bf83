import { createHash } from 'node:crypto';
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary } from './helpers/documents';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64 } from './factories/templates';

let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL: 'https://certificates.example.test' });
  org = newOrg(ctx, { orgName: 'Enugu Coding School' });
});
afterAll(() => ctx.close());

const page = (code: string) => request(ctx.app).get(`/credentials/${code}`).set('Accept', 'text/html').expect(200);
const styles = (html: string) => [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);

describe("the credential page in the issuer's branding", () => {
  it("shows the template's colours and logo, each style sheet allowed by its hash", async () => {
    const logo = pngBase64(120, 60, '#8A5A00');
    const template = await createTemplate(ctx, org, { colors: { background: '#FFFDF7', text: '#2B2118', accent: '#8A5A00' }, logo: { data: logo } });
    const issued = await request(ctx.app)
      .post('/admin/v1/certificates')
      .set('Authorization', org.admin())
      .send({ recipient_name: 'Chidi Eze', program_title: 'Web Accessibility', issue_date: '2026-05-01', expires_on: '2099-12-31', template_id: template.id, custom_fields: { grade: 'A' } })
      .expect(201);
    const res = await page(issued.body.verification_code);
    const sheets = styles(res.text);
    expect(sheets.join('\n')).toContain('#8A5A00');
    expect(sheets.join('\n')).toContain('#FFFDF7');
    for (const sheet of sheets) expect(res.headers['content-security-policy']).toContain(`'sha256-${createHash('sha256').update(sheet).digest('base64')}'`);
    const logoPath = `/credentials/${issued.body.verification_code}/logo`;
    expect(res.text).toContain(`<img class="logo" src="${logoPath}" alt="Enugu Coding School logo">`);
    expect(res.text).toContain('<span class="issuer">Enugu Coding School</span>');
    expect(res.text).toContain('<dt>Expires on</dt><dd>31 December 2099</dd>'); // the template's date format, as on its document
    // The branding sits beside the page's own features: sharing, the verifiable credential and the verifier.
    expect(res.text).toContain('Add to LinkedIn profile');
    expect(res.text).toContain(`href="/credentials/${issued.body.verification_code}/credential.json"`);
    expect(res.text).toContain('<a href="/credentials/verify">the verifier</a>');
    expect(res.text.match(/<script[^>]*>/g)).toEqual(['<script src="/credentials/assets/credentials.js" defer>']);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");

    const served = await request(ctx.app).get(logoPath).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((served.body as Buffer).equals(Buffer.from(logo, 'base64'))).toBe(true);
  });

  it('without a template: the built-in colours, no logo (its URL is a 404), and "Does not expire"', async () => {
    const certificate = await issueCertificate(ctx, org);
    const res = await page(certificate.verification_code);
    expect(styles(res.text).join('\n')).toContain('#1D4ED8');
    expect(res.text).not.toContain('class="logo"');
    expect(res.text).toContain('<dt>Expires on</dt><dd>Does not expire</dd>');
    const logo = await request(ctx.app).get(`/credentials/${certificate.verification_code}/logo`).expect(404);
    expect(logo.body.code).toBe('not_found');
    await request(ctx.app).get('/credentials/ABCDEF-GHJKMN-PQRSTU/logo').expect(404);
  });

  it('a revoked or expired certificate carries a visible band saying so', async () => {
    const revoked = await issueCertificate(ctx, org);
    await request(ctx.app).post(`/admin/v1/certificates/${revoked.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const revokedPage = (await page(revoked.verification_code)).text;
    expect(revokedPage).toContain('<div class="band" data-band="revoked">REVOKED</div>');
    // The date it was revoked (the credential's JSON says revoked_at), in the status and beside the other dates, written
    // as the document writes dates.
    const json = (await request(ctx.app).get(`/credentials/${revoked.verification_code}`).set('Accept', 'application/json').expect(200)).body;
    expect(json.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const revokedOn = json.revoked_on_text as string;
    expect(revokedOn).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
    expect(revokedPage).toContain(`This certificate was revoked by Enugu Coding School on ${revokedOn} and is no longer valid.`);
    expect(revokedPage).toContain(`<dt>Revoked on</dt><dd>${revokedOn}</dd>`);
    expect(revokedPage).not.toContain('Add to LinkedIn profile');
    expect(revokedPage).toContain('<a href="/credentials/verify">the verifier</a>');
    const expired = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-01-01' });
    const text = (await page(expired.verification_code)).text;
    expect(text).toContain('<div class="band" data-band="expired">EXPIRED</div>');
    expect(text).toContain('<dt>Expired on</dt><dd>1 January 2021</dd>');
    const valid = await issueCertificate(ctx, org);
    expect((await page(valid.verification_code)).text).not.toContain('class="band"');
  });
});
