import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, pdfText, qrCodeIn } from './helpers/documents';
import { certificateInput, issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, jpegBase64, pngBase64 } from './factories/templates';

const PUBLIC_BASE_URL = 'https://certificates.example.test';
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
  org = newOrg(ctx);
});
afterAll(() => ctx.close());

const document = (id: string, format?: 'pdf' | 'png', who = org) => {
  const call = request(ctx.app).get(`/admin/v1/certificates/${id}/document`).set('Authorization', who.admin()).buffer(true).parse(binary);
  return format ? call.query({ format }) : call;
};
const pageUrl = (code: string) => `${PUBLIC_BASE_URL}/credentials/${code}`;

describe('the rendered certificate', () => {
  it('is a PDF holding the recipient and the verification URL (built-in layout)', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Chiamaka Okafor', program_title: 'Data Engineering' });
    const res = await document(certificate.id).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.body as Buffer);
    expect(text).toContain('Chiamaka Okafor');
    expect(text).toContain('Data Engineering');
    expect(text).toContain(pageUrl(certificate.verification_code));
  });

  it('as PNG carries a QR code that decodes to the public page', async () => {
    const certificate = await issueCertificate(ctx, org);
    const res = await document(certificate.id, 'png').expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(await qrCodeIn(res.body as Buffer)).toBe(pageUrl(certificate.verification_code));
  });

  it('fills the template with custom fields, draws its images, and keeps the QR readable', async () => {
    const template = await createTemplate(ctx, org, { background_image: { data: jpegBase64(300, 200) }, logo: { data: pngBase64(40, 20) }, orientation: 'portrait', font: 'sans' });
    const res = await request(ctx.app)
      .post('/admin/v1/certificates')
      .set('Authorization', org.admin())
      .send(certificateInput({ recipient_name: 'Tunde Bakare', template_id: template.id, custom_fields: { grade: 'Distinction' } }))
      .expect(201);
    const text = await pdfText((await document(res.body.id).expect(200)).body as Buffer);
    expect(text).toContain('Tunde Bakare');
    expect(text).toContain('grade Distinction');
    expect(text).toContain(pageUrl(res.body.verification_code));
    expect(await qrCodeIn((await document(res.body.id, 'png').expect(200)).body as Buffer)).toBe(pageUrl(res.body.verification_code));
  });

  it('is rendered from the version the certificate was issued with, after the template changed', async () => {
    const template = await createTemplate(ctx, org, { text_blocks: [{ text: 'Awarded to {{recipient_name}} ({{grade}})', x: 0.1, y: 0.3, width: 0.8 }] });
    const issued = await request(ctx.app)
      .post('/admin/v1/certificates')
      .set('Authorization', org.admin())
      .send(certificateInput({ recipient_name: 'Ngozi Eze', template_id: template.id, custom_fields: { grade: 'A' } }))
      .expect(201);
    await request(ctx.app)
      .patch(`/admin/v1/templates/${template.id}`)
      .set('Authorization', org.admin())
      .send({ text_blocks: [{ text: 'Presented to {{recipient_name}}', x: 0.1, y: 0.3, width: 0.8 }] })
      .expect(200);
    const text = await pdfText((await document(issued.body.id).expect(200)).body as Buffer);
    expect(text).toContain('Awarded to Ngozi Eze (A)');
    expect(text).not.toContain('Presented to');
  });

  it('is stored once per certificate, template version and format, and served from there', async () => {
    const certificate = await issueCertificate(ctx, org);
    const first = await document(certificate.id).expect(200);
    const stored = await ctx.db('certificate_documents').where({ certificate_id: certificate.id });
    expect(stored.map((row) => [row.template_version, row.format])).toEqual([[0, 'pdf']]);
    expect(Buffer.compare(stored[0].content, first.body as Buffer)).toBe(0);
    await ctx.db('certificate_documents').where({ certificate_id: certificate.id }).update({ content: Buffer.from('%PDF-cached') });
    expect(((await document(certificate.id).expect(200)).body as Buffer).toString()).toBe('%PDF-cached');
  });

  it("another organization's certificate and a malformed id are 404; an unknown format is a 422", async () => {
    const foreign = await issueCertificate(ctx, newOrg(ctx));
    expect((await request(ctx.app).get(`/admin/v1/certificates/${foreign.id}/document`).set('Authorization', org.admin()).expect(404)).body.code).toBe('not_found');
    await request(ctx.app).get('/admin/v1/certificates/nope/document').set('Authorization', org.admin()).expect(404);
    const mine = await issueCertificate(ctx, org);
    const res = await request(ctx.app).get(`/admin/v1/certificates/${mine.id}/document`).query({ format: 'gif' }).set('Authorization', org.admin()).expect(422);
    expect(res.body.details[0].path).toBe('format');
    expect(await ctx.db('certificate_documents').where({ certificate_id: foreign.id })).toEqual([]);
  });
});
