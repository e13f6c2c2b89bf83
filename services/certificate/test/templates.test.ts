import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { newOrg, type TestOrg } from './factories/admin';
import { createTemplate, jpegBase64, pngBase64, templateInput } from './factories/templates';

let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext();
  org = newOrg(ctx);
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const post = (body: unknown, who = org, role: 'owner' | 'member' | 'operator' = 'owner') =>
  app().post('/admin/v1/templates').set('Authorization', who.admin(role)).send(body as object);
const templateCount = async (who: TestOrg) => Number((await ctx.db('templates').where({ organization_id: who.org }).count({ n: '*' }))[0]!.n);

describe('creating a template', () => {
  it('stores the definition with its defaults, images described by their content, as version 1', async () => {
    const res = await post(templateInput({ background_image: { data: jpegBase64(40, 30) }, logo: { data: pngBase64(12, 6) } })).expect(201);
    expectToMatchRouteTable(res);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^tpl_/),
      name: 'Course completion',
      status: 'active',
      version: 1,
      page_size: 'A4',
      orientation: 'landscape',
      font: 'serif',
      colors: { background: '#FFFFFF' },
      background_image: { content_type: 'image/jpeg', width: 40, height: 30 },
      logo: { content_type: 'image/png', width: 12, height: 6 },
    });
    const version = await ctx.db('template_versions').where({ template_id: res.body.id }).first();
    expect(version.version).toBe(1);
    expect(Buffer.isBuffer(version.logo)).toBe(true);
  });

  it('a member may create one; an operator may not', async () => {
    await post(templateInput(), org, 'member').expect(201);
    const res = await post(templateInput(), org, 'operator').expect(403);
    expect(res.body.code).toBe('insufficient_role');
  });

  it('an unknown placeholder is a 422 naming the block, and nothing is stored', async () => {
    const fresh = newOrg(ctx);
    const res = await post(templateInput({ text_blocks: [{ text: 'Hello {{recipient}} of {{program_title}}', x: 0, y: 0, width: 1 }] }), fresh).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([{ path: 'text_blocks.0.text', message: expect.stringContaining('{{recipient}}') }]);
    expect(await templateCount(fresh)).toBe(0);
  });

  it('a placeholder naming an undeclared custom field is a 422; declaring it makes it valid', async () => {
    const blocks = [{ text: 'Grade: {{grade}}', x: 0, y: 0, width: 1 }];
    const res = await post(templateInput({ custom_fields: [], text_blocks: blocks })).expect(422);
    expect(res.body.details[0].path).toBe('text_blocks.0.text');
    await post(templateInput({ custom_fields: [{ key: 'grade', label: 'Grade' }], text_blocks: blocks })).expect(201);
  });

  it('custom fields may not shadow a built-in placeholder or repeat', async () => {
    const res = await post(templateInput({ custom_fields: [{ key: 'recipient_name', label: 'X' }, { key: 'grade', label: 'A' }, { key: 'grade', label: 'B' }] })).expect(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['custom_fields.0.key', 'custom_fields.2.key']);
  });

  it.each([
    ['a font outside the fixed list', { font: 'comic-sans' }, 'font'],
    ['a colour that is not #RRGGBB', { colors: { background: 'red' } }, 'colors.background'],
    ['a block off the page', { text_blocks: [{ text: 'x', x: 0.5, y: 0, width: 0.8 }] }, 'text_blocks.0.width'],
    ['no text block', { text_blocks: [] }, 'text_blocks'],
    ['an unknown page size', { page_size: 'A3' }, 'page_size'],
  ])('%s is a 422', async (_label, overrides, path) => {
    const res = await post(templateInput(overrides)).expect(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it.each([
    ['bytes that are neither PNG nor JPEG', Buffer.from('GIF89a not really an image').toString('base64'), 'neither'],
    ['a PNG header over a broken body', Buffer.concat([Buffer.from(pngBase64(), 'base64').subarray(0, 40), Buffer.alloc(30)]).toString('base64'), 'readable'],
    ['an image too large in pixels', pngBase64(4001, 1), 'pixels'],
  ])('%s is refused as a background image', async (_label, data, message) => {
    const fresh = newOrg(ctx);
    const res = await post(templateInput({ background_image: { data } }), fresh).expect(422);
    expect(res.body.details).toEqual([{ path: 'background_image.data', message: expect.stringContaining(message) }]);
    expect(await templateCount(fresh)).toBe(0);
  });

  it('an image over 1 MiB is refused; a body over 3 MB is a 413', async () => {
    const big = Buffer.alloc(1024 * 1024 + 10, 1).toString('base64');
    const res = await post(templateInput({ logo: { data: big } })).expect(422);
    expect(res.body.details[0].path).toBe('logo.data');
    const huge = await post(templateInput({ logo: { data: 'A'.repeat(3_200_000) } })).expect(413);
    expect(huge.body.code).toBeDefined();
  });

  it('a body that is not JSON is a 415', async () => {
    const res = await app().post('/admin/v1/templates').set('Authorization', org.admin()).set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(res.headers['content-type']).toMatch(/json/);
  });
});

describe('reading, updating and archiving', () => {
  it('an update is a new version; the fields not given and the images are kept', async () => {
    const created = await createTemplate(ctx, org, { logo: { data: pngBase64(10, 10) } });
    const res = await app().patch(`/admin/v1/templates/${created.id}`).set('Authorization', org.admin()).send({ name: 'Renamed', font: 'sans' }).expect(200);
    expectToMatchRouteTable(res);
    expect(res.body).toMatchObject({ id: created.id, version: 2, name: 'Renamed', font: 'sans', logo: { width: 10 }, custom_fields: [{ key: 'grade' }] });
    const versions = await ctx.db('template_versions').where({ template_id: created.id }).orderBy('version');
    expect(versions.map((v) => [v.version, v.definition.name, v.definition.font])).toEqual([[1, 'Course completion', 'serif'], [2, 'Renamed', 'sans']]);
  });

  it('an update is checked against the merged template: dropping a used custom field is a 422 and adds no version', async () => {
    const created = await createTemplate(ctx, org);
    const res = await app().patch(`/admin/v1/templates/${created.id}`).set('Authorization', org.admin()).send({ custom_fields: [] }).expect(422);
    expect(res.body.details).toEqual([{ path: 'text_blocks.2.text', message: expect.stringContaining('{{grade}}') }]);
    expect((await ctx.db('templates').where({ id: created.id }).first()).current_version).toBe(1);
  });

  it('null removes an image; an empty update is a 422', async () => {
    const created = await createTemplate(ctx, org, { logo: { data: pngBase64() } });
    const res = await app().patch(`/admin/v1/templates/${created.id}`).set('Authorization', org.admin()).send({ logo: null }).expect(200);
    expect(res.body.logo).toBeNull();
    await app().patch(`/admin/v1/templates/${created.id}`).set('Authorization', org.admin()).send({}).expect(422);
  });

  it('lists by status and pages with a cursor', async () => {
    const who = newOrg(ctx);
    const [a, b, c] = [await createTemplate(ctx, who), await createTemplate(ctx, who), await createTemplate(ctx, who)];
    await app().post(`/admin/v1/templates/${b.id}/archive`).set('Authorization', who.admin()).expect(200);
    const first = await app().get('/admin/v1/templates').query({ limit: 2 }).set('Authorization', who.admin()).expect(200);
    expectToMatchRouteTable(first);
    expect(first.body.has_more).toBe(true);
    const second = await app().get('/admin/v1/templates').query({ limit: 2, starting_after: first.body.next_cursor }).set('Authorization', who.admin()).expect(200);
    expect([...first.body.data, ...second.body.data].map((t: { id: string }) => t.id).sort()).toEqual([a.id, b.id, c.id].sort());
    const active = await app().get('/admin/v1/templates').query({ status: 'active' }).set('Authorization', who.admin()).expect(200);
    expect(active.body.data.map((t: { id: string }) => t.id).sort()).toEqual([a.id, c.id].sort());
  });

  it('an archived template can be read but not changed', async () => {
    const created = await createTemplate(ctx, org);
    const archived = await app().post(`/admin/v1/templates/${created.id}/archive`).set('Authorization', org.admin()).expect(200);
    expect(archived.body).toMatchObject({ status: 'archived', archived_at: expect.any(String) });
    const res = await app().patch(`/admin/v1/templates/${created.id}`).set('Authorization', org.admin()).send({ name: 'Again' }).expect(409);
    expect(res.body.code).toBe('template_archived');
    await app().get(`/admin/v1/templates/${created.id}`).set('Authorization', org.admin()).expect(200);
  });

  it("another organization's template and a malformed id are 404", async () => {
    const created = await createTemplate(ctx, newOrg(ctx));
    for (const call of [
      app().get(`/admin/v1/templates/${created.id}`),
      app().patch(`/admin/v1/templates/${created.id}`).send({ name: 'Mine now' }),
      app().post(`/admin/v1/templates/${created.id}/archive`),
      app().get('/admin/v1/templates/not-an-id'),
    ]) {
      const res = await call.set('Authorization', org.admin()).expect(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});
