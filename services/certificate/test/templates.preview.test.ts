import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64, templateInput } from './factories/templates';
import { binary } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ TEMPLATE_MAX_DECODED_PIXELS: '250000' });
});
afterAll(() => ctx.close());

const preview = (org: ReturnType<typeof newOrg>, body: unknown, role: 'owner' | 'member' | 'operator' = 'member') =>
  request(ctx.app).post('/admin/v1/templates/preview').set('Authorization', org.admin(role)).send(body as object).buffer(true).parse(binary);

describe('POST /admin/v1/templates/preview', () => {
  it('draws a draft as the renderer does, as PNG, and stores nothing', async () => {
    const org = newOrg(ctx);
    const res = await preview(org, templateInput({ logo: { data: pngBase64(64, 32) } })).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('no-store');
    const png = res.body as Buffer;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // A4 landscape at 144 dpi, the documents' size.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1684, 1191]);
    expect(await ctx.db('templates').where({ organization_id: org.org })).toEqual([]);
  });

  it('refuses a draft as a new template would be refused: field errors, image limits, roles', async () => {
    const org = newOrg(ctx);
    const unnamed = await request(ctx.app).post('/admin/v1/templates/preview').set('Authorization', org.admin()).send({ ...templateInput(), name: '' }).expect(422);
    expect(unnamed.body.details.map((detail: { path: string }) => detail.path)).toContain('name');
    const huge = await request(ctx.app).post('/admin/v1/templates/preview').set('Authorization', org.admin()).send(templateInput({ background_image: { data: pngBase64(600, 600) } })).expect(422);
    expect(huge.body.details[0].path).toBe('background_image.data');
    await request(ctx.app).post('/admin/v1/templates/preview').set('Authorization', org.admin('operator')).send(templateInput()).expect(403);
  });
});

/**
 * While the render pool is busy (held on purpose, `renderPool.hold()`) a preview is a 202 with `Retry-After`, like a
 * public document: its render goes on, and the same draft sent again gets the PNG, kept a minute for this organization.
 */
describe('a preview while the render pool is busy', () => {
  let busy: TestContext;
  beforeAll(() => {
    busy = createTestContext({ TEMPLATE_MAX_DECODED_PIXELS: '250000', DOCUMENT_RENDER_WORKERS: '1', DOCUMENT_RENDER_WAIT_MS: '100', DOCUMENT_RENDERS_PER_ORGANIZATION: '2', DOCUMENT_RENDER_QUEUE: '4' });
  });
  afterAll(() => busy.close());

  // A request the old code would have held until the pool freed up fails fast instead of waiting for the test's timeout.
  const previewOf = (org: TestOrg, body: unknown, path = '/admin/v1/templates/preview') =>
    request(busy.app).post(path).set('Authorization', org.admin()).send(body as object).timeout(10000).buffer(true).parse(binary);
  const json = (res: { body: unknown }) => JSON.parse((res.body as Buffer).toString()) as unknown;

  /** Sends the same preview again, as the designer does after `Retry-After`, until it is drawn. */
  async function whenDrawn(org: TestOrg, body: unknown, path?: string) {
    for (;;) {
      const res = await previewOf(org, body, path);
      if (res.status !== 202) return res;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('is a 202 with Retry-After and a JSON body; the same draft sent again once drawn is the PNG, kept even while the pool is busy again', async () => {
    const org = newOrg(busy);
    const colors = { background: '#FFF8E7', text: '#222222', accent: '#8A6D3B' };
    const draft = templateInput({ colors });
    let release = await busy.services.renderPool.hold();
    let pending;
    try {
      pending = await previewOf(org, draft).expect(202);
    } finally {
      release();
    }
    const seconds = Number(pending.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(pending.headers['cache-control']).toBe('no-store');
    expect(json(pending)).toEqual({ status: 'rendering', retry_after: seconds });
    expectToMatchRouteTable({ ...pending, body: json(pending) });

    const drawn = await whenDrawn(org, draft);
    expect(drawn.status).toBe(200);
    expect(drawn.headers['content-type']).toBe('image/png');
    expect((drawn.body as Buffer).subarray(1, 4).toString('latin1')).toBe('PNG');

    // Kept: with the pool busy again, the same draft is the same PNG at once.
    release = await busy.services.renderPool.hold();
    try {
      const again = await previewOf(org, draft).expect(200);
      expect(Buffer.compare(again.body as Buffer, drawn.body as Buffer)).toBe(0);
      // A different draft is drawn anew: not ready while the pool is busy.
      await previewOf(org, { ...draft, colors: { ...colors, accent: '#1F4E79' } }).expect(202);
      // Another organization (of the same name) sending the same draft never gets this one's PNG.
      await previewOf(newOrg(busy, { orgName: org.orgName }), draft).expect(202);
    } finally {
      release();
    }
  });

  it("of an edit is a 202 too, then the PNG; past the organization's budget of renders in flight it is queued (202), not refused", async () => {
    const org = newOrg(busy);
    const template = await createTemplate(busy, org);
    const edit = { colors: { background: '#EEF5FF', text: '#102030', accent: '#336699' } };
    const release = await busy.services.renderPool.hold();
    const drafts = ['#111111', '#222222', '#333333'].map((text) => templateInput({ colors: { background: '#FFFFFF', text, accent: '#000000' } }));
    try {
      await previewOf(org, edit, `/admin/v1/templates/${template.id}/preview`).expect(202);
      // The edit's render and the first draft's fill the budget (2): the second and third drafts wait all the same.
      for (const draft of drafts) await previewOf(org, draft).expect(202);
    } finally {
      release();
    }
    const drawn = await whenDrawn(org, edit, `/admin/v1/templates/${template.id}/preview`);
    expect(drawn.status).toBe(200);
    expect(drawn.headers['content-type']).toBe('image/png');
    expect((await whenDrawn(org, drafts[2])).status).toBe(200);
    expect(await busy.db('template_versions').where({ template_id: template.id }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('is a 503 with Retry-After only when the render queue is full, all organizations together', async () => {
    const release = await busy.services.renderPool.hold();
    try {
      for (const [index, org] of [newOrg(busy), newOrg(busy)].entries()) {
        for (const text of ['#101010', '#202020']) await previewOf(org, templateInput({ name: `Queue ${index}`, colors: { background: '#FFFFFF', text, accent: '#000000' } })).expect(202);
      }
      expect(busy.services.renderPool.load().queued).toBe(4);
      const refused = await request(busy.app).post('/admin/v1/templates/preview').set('Authorization', newOrg(busy).admin()).send(templateInput()).expect(503);
      expect(refused.body.code).toBe('too_many_in_flight');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expectToMatchRouteTable(refused);
    } finally {
      release();
    }
    while (busy.services.renderPool.load().queued > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
