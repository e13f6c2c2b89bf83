import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, pdfText, pixelAt, qrCodeIn } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64 } from './factories/templates';

const PUBLIC_BASE_URL = 'https://certificates.example.test';
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
  org = newOrg(ctx, { orgName: 'Kano Polytechnic Academy' });
});
afterAll(() => ctx.close());

const document = (id: string, format: 'pdf' | 'png' = 'pdf') =>
  request(ctx.app).get(`/admin/v1/certificates/${id}/document`).query({ format }).set('Authorization', org.admin()).buffer(true).parse(binary).expect(200);
const issueWith = async (templateId: string, overrides: Record<string, unknown> = {}) =>
  (await request(ctx.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput({ template_id: templateId, custom_fields: { grade: 'A' }, ...overrides })).expect(201)).body;

describe('the document design', () => {
  it('the built-in layout prints the issuer and a human date, as selectable text', async () => {
    const certificate = await issueCertificate(ctx, org, { issue_date: '2026-11-26' });
    const text = await pdfText((await document(certificate.id)).body as Buffer);
    expect(text).toContain('Issued by Kano Polytechnic Academy on 26 November 2026');
    expect(text).not.toContain('2026-11-26');
  });

  it("a template's layout names the issuer even where its blocks do not, and writes dates in its format", async () => {
    const template = await createTemplate(ctx, org, {
      date_format: 'us',
      text_blocks: [
        { text: 'Certificate of Completion', x: 0.1, y: 0.1, width: 0.8, font_size: 32, bold: true },
        { text: '{{recipient_name}} ({{grade}}), {{issue_date}}', x: 0.1, y: 0.3, width: 0.8 },
      ],
    });
    const issued = await issueWith(template.id, { recipient_name: 'Zainab Bello', issue_date: '2026-05-01' });
    const text = await pdfText((await document(issued.id)).body as Buffer);
    expect(text).toContain('Zainab Bello (A), May 1, 2026');
    expect(text).toContain('Issued by Kano Polytechnic Academy');
  });

  it('draws a signature with its label and a frame, and the QR code still reads', async () => {
    const template = await createTemplate(ctx, org, {
      frame: { style: 'double', color: '#8A5A00' },
      signature_image: { data: pngBase64(300, 100, '#111111') },
      signature_label: 'Amaka Obi, Programme Director',
      signature_placement: { x: 0.1, y: 0.66, width: 0.25 },
      logo: { data: pngBase64(400, 400, '#FF00FF') },
      logo_placement: { x: 0.05, y: 0.05, width: 0.6 },
    });
    expect(template).toMatchObject({ frame: { style: 'double', color: '#8A5A00' }, signature_label: 'Amaka Obi, Programme Director', signature_image: { content_type: 'image/png', width: 300, height: 100 } });
    const issued = await issueWith(template.id);
    const text = await pdfText((await document(issued.id)).body as Buffer);
    expect(text).toContain('Amaka Obi, Programme Director');
    expect(text).toContain('Certificate of Completion');
    expect(await qrCodeIn((await document(issued.id, 'png')).body as Buffer)).toBe(`${PUBLIC_BASE_URL}/credentials/${issued.verification_code}`);
  });

  it("a template's issuer name replaces the organization's on the document, with a numeric date", async () => {
    const template = await createTemplate(ctx, org, { issuer_name: 'Faculty of Engineering', date_format: 'us_numeric' });
    const issued = await issueWith(template.id, { issue_date: '2026-03-01' });
    const text = await pdfText((await document(issued.id)).body as Buffer);
    expect(text).toContain('Issued by Faculty of Engineering');
    expect(text).not.toContain('Kano Polytechnic Academy');
    const dated = await createTemplate(ctx, org, {
      issuer_name: 'Faculty of Engineering',
      date_format: 'us_numeric',
      text_blocks: [{ text: '{{recipient_name}} on {{issue_date}} ({{grade}})', x: 0.1, y: 0.3, width: 0.8 }],
    });
    const numeric = await issueWith(dated.id, { recipient_name: 'Musa Danjuma', issue_date: '2026-03-01' });
    expect(await pdfText((await document(numeric.id)).body as Buffer)).toContain('Musa Danjuma on 03/01/2026 (A)');
  });

  it("the credential page, its JSON and its verifiable credential name the template's issuer and write dates as the document does", async () => {
    const template = await createTemplate(ctx, org, {
      issuer_name: 'Faculty of Engineering',
      date_format: 'us',
      text_blocks: [{ text: '{{recipient_name}}, {{issue_date}} ({{grade}})', x: 0.1, y: 0.3, width: 0.8 }],
    });
    const issued = await issueWith(template.id, { recipient_name: 'Halima Sani', issue_date: '2026-11-26', expires_on: '2028-01-05' });
    const pdf = await pdfText((await document(issued.id)).body as Buffer);
    expect(pdf).toContain('Halima Sani, November 26, 2026 (A)');
    expect(pdf).toContain('Issued by Faculty of Engineering');

    const page = `/credentials/${issued.verification_code as string}`;
    const json = await request(ctx.app).get(page).set('Accept', 'application/json').expect(200);
    expectToMatchRouteTable(json);
    expect(json.body).toMatchObject({
      issuer_name: 'Faculty of Engineering',
      organization_name: 'Kano Polytechnic Academy',
      issue_date: '2026-11-26',
      issue_date_text: 'November 26, 2026',
      expires_on_text: 'January 5, 2028',
      revoked_on_text: null,
    });
    const html = (await request(ctx.app).get(page).set('Accept', 'text/html').expect(200)).text;
    expect(html).toContain('<dt>Issued by</dt><dd>Faculty of Engineering, for Kano Polytechnic Academy (name not verified) · issuer identity not verified</dd>');
    expect(html).toContain('<dt>Issue date</dt><dd>November 26, 2026</dd>');
    expect(html).toContain('<dt>Expires on</dt><dd>January 5, 2028</dd>');
    expect(html).toContain('It was issued by Faculty of Engineering.');
    expect(html).not.toContain('2026-11-26</dd>');
    const credential = await request(ctx.app).get(`${page}/credential.json`).expect(200);
    expect(credential.body.issuer.name).toBe('Faculty of Engineering');

    // Revoked: the day is written in the same format, and the issuer is the same name.
    await request(ctx.app).post(`/admin/v1/certificates/${issued.id as string}/revoke`).set('Authorization', org.admin()).send().expect(200);
    const revoked = await request(ctx.app).get(page).set('Accept', 'application/json').expect(200);
    expect(revoked.body.revoked_on_text).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    const revokedHtml = (await request(ctx.app).get(page).set('Accept', 'text/html').expect(200)).text;
    expect(revokedHtml).toContain(`This certificate was revoked by Faculty of Engineering on ${revoked.body.revoked_on_text as string} and is no longer valid.`);
  });

  it('a certificate of the built-in layout shows the organization and the long date on its page, as its document does', async () => {
    const certificate = await issueCertificate(ctx, org, { issue_date: '2026-11-26' });
    const json = await request(ctx.app).get(`/credentials/${certificate.verification_code as string}`).set('Accept', 'application/json').expect(200);
    expect(json.body).toMatchObject({ issuer_name: 'Kano Polytechnic Academy', issue_date_text: '26 November 2026' });
    expect(await pdfText((await document(certificate.id)).body as Buffer)).toContain('Issued by Kano Polytechnic Academy on 26 November 2026');
  });

  it('the frame style changes the drawn PNG: the page edge carries the frame colour only with a frame', async () => {
    const draw = async (style: string) => {
      const res = await request(ctx.app)
        .post('/admin/v1/templates/preview')
        .set('Authorization', org.admin())
        .send({ name: 'Framed', text_blocks: [{ text: 'Certificate', x: 0.1, y: 0.4, width: 0.8 }], frame: { style, color: '#FF0000' } })
        .buffer(true)
        .parse(binary)
        .expect(200);
      return res.body as Buffer;
    };
    const [none, single, double] = [await draw('none'), await draw('single'), await draw('double')];
    expect(Buffer.compare(none, single)).not.toBe(0);
    expect(Buffer.compare(single, double)).not.toBe(0);
    // A4 landscape at 2 px a point: the frame sits 3 % of the short side (17.9 pt) inside the edge, halfway down the left.
    const edge = { x: Math.round(595.28 * 0.03 * 2), y: 595 };
    expect(await pixelAt(none, edge.x, edge.y)).toEqual([255, 255, 255]);
    expect(await pixelAt(single, edge.x, edge.y)).toEqual([255, 0, 0]);
  });

  it('validates the design fields: frame style, date format, signature image; null removes the signature', async () => {
    const bad = await request(ctx.app)
      .post('/admin/v1/templates')
      .set('Authorization', org.admin())
      .send({ name: 'x', text_blocks: [{ text: 'x', x: 0, y: 0, width: 1 }], frame: { style: 'dotted' }, date_format: 'roman', signature_image: { data: Buffer.from('not an image').toString('base64') } })
      .expect(422);
    expect(bad.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['date_format', 'frame.style']);
    const image = await request(ctx.app)
      .post('/admin/v1/templates')
      .set('Authorization', org.admin())
      .send({ name: 'x', text_blocks: [{ text: 'x', x: 0, y: 0, width: 1 }], signature_image: { data: Buffer.from('not an image').toString('base64') } })
      .expect(422);
    expect(image.body.details[0].path).toBe('signature_image.data');

    const template = await createTemplate(ctx, org, { signature_image: { data: pngBase64(30, 10) }, signature_label: 'Dean' });
    const removed = await request(ctx.app).patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ signature_image: null, signature_label: null }).expect(200);
    expectToMatchRouteTable(removed);
    expect(removed.body).toMatchObject({ version: 2, signature_image: null, date_format: 'long', frame: { style: 'none' } });
    expect(removed.body).not.toHaveProperty('signature_label');
  });
});
