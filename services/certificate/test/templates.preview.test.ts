import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { newOrg } from './factories/admin';
import { pngBase64, templateInput } from './factories/templates';
import { binary } from './helpers/documents';

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
