import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { binary } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64 } from './factories/templates';

/** Editing a template makes a new version; its history; the preview of an edit. */
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext();
  org = newOrg(ctx, { orgName: 'Zaria School of Design' });
});
afterAll(() => ctx.close());

const api = () => request(ctx.app);
const issueWith = async (templateId: string) =>
  (await api().post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput({ template_id: templateId, custom_fields: { grade: 'B' } })).expect(201)).body as { id: string };
const versions = (id: string, query: Record<string, unknown> = {}, who: TestOrg = org) => api().get(`/admin/v1/templates/${id}/versions`).query(query).set('Authorization', who.admin());
const previewEdit = (id: string, body: object) => api().post(`/admin/v1/templates/${id}/preview`).set('Authorization', org.admin()).send(body).buffer(true).parse(binary);

describe('editing a template', () => {
  it('makes version 2 current; certificates issued before keep version 1; the list and the history show it', async () => {
    const template = await createTemplate(ctx, org, { name: 'Design diploma' });
    const before = await issueWith(template.id);

    const edited = await api().patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ name: 'Design diploma (2027)', issuer_name: 'Faculty of Design', date_format: 'us_numeric' }).expect(200);
    expectToMatchRouteTable(edited);
    expect(edited.body).toMatchObject({ id: template.id, version: 2, name: 'Design diploma (2027)', issuer_name: 'Faculty of Design', date_format: 'us_numeric' });
    const after = await issueWith(template.id);

    const rows = await ctx.db('certificates').whereIn('id', [before.id, after.id]).select('id', 'template_id', 'template_version');
    expect(Object.fromEntries(rows.map((row) => [row.id, [row.template_id, row.template_version]]))).toEqual({ [before.id]: [template.id, 1], [after.id]: [template.id, 2] });
    expect(await ctx.db('template_versions').where({ template_id: template.id }).orderBy('version').pluck('version')).toEqual([1, 2]);

    const list = await api().get('/admin/v1/templates').set('Authorization', org.admin()).expect(200);
    expect(list.body.data.filter((row: { id: string }) => row.id === template.id).map((row: { version: number; name: string }) => [row.version, row.name])).toEqual([[2, 'Design diploma (2027)']]);

    const history = await versions(template.id).expect(200);
    expectToMatchRouteTable(history);
    expect(history.body.data.map(({ version, name, current, certificates_issued }: Record<string, unknown>) => ({ version, name, current, certificates_issued }))).toEqual([
      { version: 2, name: 'Design diploma (2027)', current: true, certificates_issued: 1 },
      { version: 1, name: 'Design diploma', current: false, certificates_issued: 1 },
    ]);
    expect(history.body).toMatchObject({ has_more: false, next_before: null });
  });

  it('removes the issuer name with null (the organization is named again)', async () => {
    const template = await createTemplate(ctx, org, { issuer_name: 'Faculty of Design' });
    expect(template).toMatchObject({ issuer_name: 'Faculty of Design' });
    const edited = await api().patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ issuer_name: null }).expect(200);
    expect(edited.body.version).toBe(2);
    expect(edited.body).not.toHaveProperty('issuer_name');
    const blank = await api().patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ issuer_name: '  ', date_format: 'roman' }).expect(422);
    expect(blank.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['date_format', 'issuer_name']);
  });
});

describe('GET /admin/v1/templates/{id}/versions', () => {
  it('pages newest first with `before`', async () => {
    const template = await createTemplate(ctx, org);
    for (const name of ['Second', 'Third']) await api().patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ name }).expect(200);
    const first = await versions(template.id, { limit: 2 }).expect(200);
    expect(first.body.data.map((row: { version: number }) => row.version)).toEqual([3, 2]);
    expect(first.body).toMatchObject({ has_more: true, next_before: 2 });
    const second = await versions(template.id, { limit: 2, before: 2 }).expect(200);
    expect(second.body.data.map((row: { version: number; current: boolean }) => [row.version, row.current])).toEqual([[1, false]]);
    expect(second.body).toMatchObject({ has_more: false, next_before: null });
    expect((await versions(template.id, { limit: 0 }).expect(422)).body.details[0].path).toBe('limit');
  });

  it("another organization's template and a malformed id are 404; an operator is 403", async () => {
    const template = await createTemplate(ctx, org);
    expect((await versions(template.id, {}, newOrg(ctx)).expect(404)).body.code).toBe('not_found');
    await versions('tpl_nope').expect(404);
    await api().get(`/admin/v1/templates/${template.id}/versions`).set('Authorization', org.admin('operator')).expect(403);
  });
});

describe('POST /admin/v1/templates/{id}/preview', () => {
  it('draws the version an update would make, with the images it keeps, and adds no version', async () => {
    const template = await createTemplate(ctx, org, { logo: { data: pngBase64(200, 200, '#FF00FF') } });
    const kept = await previewEdit(template.id, { name: 'Renamed' }).expect(200);
    expect(kept.headers['content-type']).toBe('image/png');
    expect(kept.headers['cache-control']).toBe('no-store');
    const withoutLogo = await previewEdit(template.id, { name: 'Renamed', logo: null }).expect(200);
    expect(Buffer.compare(kept.body as Buffer, withoutLogo.body as Buffer)).not.toBe(0);
    expect(await ctx.db('template_versions').where({ template_id: template.id }).pluck('version')).toEqual([1]);
    expect((await api().get(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).expect(200)).body).toMatchObject({ version: 1, name: 'Course completion' });
  });

  it('refuses an edit as the update would: field errors, an archived template, another organization', async () => {
    const template = await createTemplate(ctx, org);
    const bad = await api().post(`/admin/v1/templates/${template.id}/preview`).set('Authorization', org.admin()).send({ frame: { style: 'wavy' } }).expect(422);
    expect(bad.body.details[0].path).toBe('frame.style');
    const foreign = await createTemplate(ctx, newOrg(ctx));
    await api().post(`/admin/v1/templates/${foreign.id}/preview`).set('Authorization', org.admin()).send({ name: 'x' }).expect(404);
    await api().post(`/admin/v1/templates/${template.id}/archive`).set('Authorization', org.admin()).expect(200);
    const archived = await api().post(`/admin/v1/templates/${template.id}/preview`).set('Authorization', org.admin()).send({ name: 'x' }).expect(409);
    expect(archived.body.code).toBe('template_archived');
  });
});
