import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, pdfText } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, createApiKey, issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, jpegBase64, pngBase64 } from './factories/templates';

/**
 * The public document URLs render in a worker pool, never on the event loop: a cold document that is not ready within
 * the wait is a 202 with `Retry-After`, and the service keeps answering meanwhile. The pool is held busy on purpose
 * (`renderPool.hold()`), so nothing here depends on how fast a render is.
 */
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ DOCUMENT_RENDER_WORKERS: '1', DOCUMENT_RENDER_WAIT_MS: '100', DOCUMENT_RENDERS_PER_ORGANIZATION: '2' });
  org = newOrg(ctx);
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const documentOf = (code: string, format: 'pdf' | 'png', headers: Record<string, string> = {}) => app().get(`/credentials/${code}/document.${format}`).set(headers).buffer(true).parse(binary);
const maxAge = (cacheControl: string | undefined) => Number(/max-age=(\d+)/.exec(cacheControl ?? '')?.[1]);

/** Asks again, as a client honouring 202 and 503 with Retry-After, until the document is served (the test's timeout bounds it). */
async function whenReady(code: string, format: 'pdf' | 'png') {
  for (;;) {
    const res = await documentOf(code, format);
    if (res.status !== 202 && res.status !== 503) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A template at the default pixel cap's scale: a 4000 × 4000 background (16 million pixels decoded). */
async function largeTemplate(who: TestOrg) {
  return createTemplate(ctx, who, { custom_fields: [], text_blocks: [{ text: '{{recipient_name}}', x: 0.1, y: 0.4, width: 0.8 }], background_image: { data: jpegBase64(4000, 4000) } });
}
async function issueWith(who: TestOrg, templateId: string, recipient = 'Bola Ahmed') {
  const res = await app().post('/admin/v1/certificates').set('Authorization', who.admin()).send(certificateInput({ recipient_name: recipient, template_id: templateId })).expect(201);
  return res.body as { id: string; verification_code: string };
}

describe('a cold public document', () => {
  it('is a 202 with Retry-After while the pool is busy; credential reads still answer; then it is served, cached for at most 60 s', async () => {
    const template = await largeTemplate(org);
    const certificate = await issueWith(org, template.id);
    const key = (await createApiKey(ctx, org)).token;

    const release = await ctx.services.renderPool.hold();
    let pending;
    try {
      pending = await app().get(`/credentials/${certificate.verification_code}/document.png`).expect(202);
      // The render is queued behind the held worker: reads of the credential answer all the same.
      const json = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/json').expect(200);
      expect(json.body).toMatchObject({ recipient_name: 'Bola Ahmed', status: 'valid' });
      const verified = await app().get(`/api/v1/verify/${certificate.verification_code}`).set('Authorization', `Bearer ${key}`).expect(200);
      expect(verified.body).toMatchObject({ valid: true, recipient_name: 'Bola Ahmed' });
      // And the document is still being rendered (the same render, joined).
      await documentOf(certificate.verification_code, 'png').expect(202);
    } finally {
      release();
    }
    expect(Number(pending.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(pending.headers['cache-control']).toBe('no-store');
    expect(pending.body).toEqual({ status: 'rendering', retry_after: Number(pending.headers['retry-after']) });
    expectToMatchRouteTable(pending);

    const served = await whenReady(certificate.verification_code, 'png');
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((served.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
    expect(maxAge(served.headers['cache-control'])).toBeLessThanOrEqual(60);
    expect(served.headers.etag).toMatch(/^"[\w-]+"$/);
    await documentOf(certificate.verification_code, 'png', { 'If-None-Match': served.headers.etag! }).expect(304);
  });

  it("beyond the organization's budget of renders in flight is a 503 with Retry-After; other organizations are not held back", async () => {
    const [first, second, third] = [await issueCertificate(ctx, org), await issueCertificate(ctx, org), await issueCertificate(ctx, org)];
    const other = newOrg(ctx);
    const theirs = await issueCertificate(ctx, other);

    const release = await ctx.services.renderPool.hold();
    try {
      await documentOf(first.verification_code, 'pdf').expect(202);
      await documentOf(second.verification_code, 'pdf').expect(202);
      // The same document again joins the render in flight: it costs nothing more.
      await documentOf(first.verification_code, 'pdf').expect(202);
      const refused = await app().get(`/credentials/${third.verification_code}/document.pdf`).expect(503);
      expect(refused.body.code).toBe('too_many_in_flight');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expectToMatchRouteTable(refused);
      await documentOf(theirs.verification_code, 'pdf').expect(202);
    } finally {
      release();
    }
    expect((await whenReady(third.verification_code, 'pdf')).headers['content-type']).toBe('application/pdf');
  });

  it("of an organization new to the queue is told to ask again from its own place, not after every other organization's renders", async () => {
    const flooders = [newOrg(ctx), newOrg(ctx), newOrg(ctx)];
    const flooding = await Promise.all(flooders.flatMap((flooder) => [issueCertificate(ctx, flooder), issueCertificate(ctx, flooder)]));
    const bystander = newOrg(ctx);
    const first = await issueCertificate(ctx, bystander);

    const release = await ctx.services.renderPool.hold();
    let pending;
    let wholeQueue;
    try {
      for (const certificate of flooding) await documentOf(certificate.verification_code, 'pdf').expect(202);
      while (ctx.services.renderPool.load().queued < flooding.length) await new Promise((resolve) => setTimeout(resolve, 5));
      const { running, queued, workers } = ctx.services.renderPool.load();
      // What a first-come-first-served queue would have said: after every render running and waiting.
      wholeQueue = 1 + Math.ceil((running + queued) / workers);
      pending = await documentOf(first.verification_code, 'pdf').expect(202);
    } finally {
      release();
    }
    expect(JSON.parse((pending.body as Buffer).toString())).toEqual({ status: 'rendering', retry_after: Number(pending.headers['retry-after']) });
    // Its render goes after one of each flooding organization's (a round), not after all six.
    expect(Number(pending.headers['retry-after'])).toBeLessThan(wholeQueue);
    expect(Number(pending.headers['retry-after'])).toBeLessThanOrEqual(1 + Math.ceil((1 + flooders.length) / 1));
    expect((await whenReady(first.verification_code, 'pdf')).headers['content-type']).toBe('application/pdf');
  });
});

describe('a revoked or expired certificate', () => {
  it('gets a new document with a REVOKED band once revoked (PDF text and PNG bytes change)', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Kemi Adeyemi' });
    const pdfBefore = await whenReady(certificate.verification_code, 'pdf');
    const pngBefore = await whenReady(certificate.verification_code, 'png');
    expect(await pdfText(pdfBefore.body as Buffer)).not.toContain('REVOKED');

    await app().post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const pdfAfter = await whenReady(certificate.verification_code, 'pdf');
    const pngAfter = await whenReady(certificate.verification_code, 'png');
    expect(pdfAfter.status).toBe(200);
    const text = await pdfText(pdfAfter.body as Buffer);
    expect(text).toContain('REVOKED');
    expect(text).toContain('Kemi Adeyemi');
    expect(Buffer.compare(pngAfter.body as Buffer, pngBefore.body as Buffer)).not.toBe(0);
    expect(pngAfter.headers.etag).not.toBe(pngBefore.headers.etag);
    for (const res of [pdfBefore, pngBefore, pdfAfter, pngAfter]) expect(maxAge(res.headers['cache-control'])).toBeLessThanOrEqual(60);
    // A cache revalidating with the old ETag gets the new document, not a 304.
    await documentOf(certificate.verification_code, 'png', { 'If-None-Match': pngBefore.headers.etag! }).expect(200);
  });

  it('an expired certificate says EXPIRED on its document', async () => {
    const certificate = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-01-01' });
    expect(await pdfText((await whenReady(certificate.verification_code, 'pdf')).body as Buffer)).toContain('EXPIRED');
  });
});

describe('template images', () => {
  it('are refused at upload when they decode to more pixels together than the cap (create and update)', async () => {
    const bigPng = pngBase64(4000, 4000);
    const refused = await app()
      .post('/admin/v1/templates')
      .set('Authorization', org.admin())
      .send({ name: 'Huge', text_blocks: [{ text: '{{recipient_name}}', x: 0.1, y: 0.4, width: 0.8 }], background_image: { data: jpegBase64(4000, 4000) }, logo: { data: bigPng } })
      .expect(422);
    expect(refused.body.code).toBe('validation_failed');
    expect(refused.body.details[0].path).toBe('logo.data');
    expect(refused.body.details[0].message).toContain('32000000 pixels');

    const template = await largeTemplate(org);
    const patched = await app().patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ logo: { data: bigPng } }).expect(422);
    expect(patched.body.details[0].path).toBe('logo.data');
    const current = await app().get(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).expect(200);
    expect(current.body).toMatchObject({ version: 1, logo: null });
  });
});
