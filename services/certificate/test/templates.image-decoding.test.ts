import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, queuedBehindHold } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { newOrg, type TestOrg } from './factories/admin';
import { pngBase64, templateInput } from './factories/templates';

/**
 * Uploaded template images are never decoded on the event loop, nor before the template's pixel total is known to be
 * within the cap: headers first, then the total, then a decode in the bounded render pool, within the organization's
 * budget of jobs in flight (the same budget as its documents and previews). The pool is held busy on purpose
 * (`renderPool.hold()`), so nothing here depends on how fast a decode is.
 */
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ TEMPLATE_MAX_DECODED_PIXELS: '250000', DOCUMENT_RENDER_WORKERS: '1', DOCUMENT_RENDERS_PER_ORGANIZATION: '2', GOVERNOR_RENDERS_PER_ACCOUNT: '10' });
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const withImage = (width = 64, height = 32) => templateInput({ logo: { data: pngBase64(width, height) } });
const create = (org: TestOrg, body: unknown) => app().post('/admin/v1/templates').set('Authorization', org.admin()).send(body as object);
const preview = (org: TestOrg, body: unknown) => app().post('/admin/v1/templates/preview').set('Authorization', org.admin()).send(body as object).buffer(true).parse(binary);

/** A PNG whose header says `width` × `height` but whose pixel data is missing: decoding it would fail (and cost its size). */
function pngHeaderOnly(width: number, height: number): string {
  return Buffer.concat([Buffer.from(pngBase64(width, height), 'base64').subarray(0, 40), Buffer.alloc(30)]).toString('base64');
}

describe('template images', () => {
  it('are measured by their headers before any is decoded: over the pixel cap is a 422 on the total, with nothing decoded or stored', async () => {
    const org = newOrg(ctx);
    // 600 × 600 = 360,000 pixels, over the cap of 250,000; the body would not decode, so a decode first would say "readable".
    const res = await create(org, templateInput({ background_image: { data: pngHeaderOnly(600, 600) } })).expect(422);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'background_image.data', message: expect.stringContaining('360000 pixels') })]);
    expect(await ctx.db('templates').where({ organization_id: org.org })).toEqual([]);
  });

  it('are decoded in the render pool: while it is busy a create waits, and past the organization budget it is a 503 with Retry-After', async () => {
    const org = newOrg(ctx);
    const other = newOrg(ctx);
    const release = await ctx.services.renderPool.hold();
    let first, second, theirs;
    try {
      first = await queuedBehindHold(ctx.services.renderPool, () => create(org, withImage()), 1);
      second = await queuedBehindHold(ctx.services.renderPool, () => preview(org, withImage()), 2);
      const refused = await create(org, withImage()).expect(503);
      expect(refused.body).toMatchObject({ code: 'too_many_in_flight' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expectToMatchRouteTable(refused);
      // Another organization is not held back by this one's budget: its create waits in the pool too.
      theirs = await queuedBehindHold(ctx.services.renderPool, () => create(other, withImage()), 3);
    } finally {
      release();
    }
    expect((await first!.answer).status).toBe(201);
    const drawn = await second!.answer;
    expect(drawn.status).toBe(200);
    expect(drawn.headers['content-type']).toBe('image/png');
    expect((await theirs!.answer).status).toBe(201);
    expect(await ctx.db('templates').where({ organization_id: org.org }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('that do not decode are a 422 naming the first such image, after the pool decoded them', async () => {
    const org = newOrg(ctx);
    const broken = Buffer.concat([Buffer.from(pngBase64(40, 40), 'base64').subarray(0, 40), Buffer.alloc(30)]).toString('base64');
    const res = await create(org, templateInput({ logo: { data: pngBase64(20, 20) }, signature_image: { data: broken } })).expect(422);
    expect(res.body.details).toEqual([{ path: 'signature_image.data', message: 'is not a readable PNG image' }]);
    const previewed = await app().post('/admin/v1/templates/preview').set('Authorization', org.admin()).send(templateInput({ background_image: { data: broken } })).expect(422);
    expect(previewed.body.details).toEqual([{ path: 'background_image.data', message: 'is not a readable PNG image' }]);
    expect(await ctx.db('templates').where({ organization_id: org.org })).toEqual([]);
  });
});
