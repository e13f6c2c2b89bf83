import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, newOrg, type TestOrg } from './factories/admin';
import { createTemplate } from './factories/templates';

let ctx: TestContext;

beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const issue = (who: TestOrg, body: object) => app().post('/admin/v1/certificates').set('Authorization', who.admin()).send(body);
const batch = (who: TestOrg, body: object | string) => {
  const call = app().post('/admin/v1/certificates/batch').set('Authorization', who.admin());
  return typeof body === 'string' ? call.set('Content-Type', 'text/csv').send(body) : call.send(body);
};
const balance = async (who: TestOrg) => (await ctx.db('organizations').where({ id: who.org }).first('balance')).balance as number;
const certificateCount = async (who: TestOrg) => Number((await ctx.db('certificates').where({ organization_id: who.org }).count({ n: '*' }))[0]!.n);

describe('issuing one certificate with a template', () => {
  it('keeps the template version it was issued with and its custom field values', async () => {
    const org = newOrg(ctx);
    const template = await createTemplate(ctx, org);
    const res = await issue(org, certificateInput({ template_id: template.id, custom_fields: { grade: 'A+' } })).expect(201);
    expectToMatchRouteTable(res);
    expect(res.body).toMatchObject({ template_id: template.id, template_version: 1, custom_fields: { grade: 'A+' } });

    await app().patch(`/admin/v1/templates/${template.id}`).set('Authorization', org.admin()).send({ name: 'Version two' }).expect(200);
    const later = await issue(org, certificateInput({ template_id: template.id, custom_fields: { grade: 'B' } })).expect(201);
    expect(later.body.template_version).toBe(2);
    const first = await app().get(`/admin/v1/certificates/${res.body.id}`).set('Authorization', org.admin()).expect(200);
    expect(first.body.template_version).toBe(1);
  });

  it('a missing required custom field or an undeclared one is a 422 with details; nothing is spent', async () => {
    const org = newOrg(ctx);
    const template = await createTemplate(ctx, org);
    await issue(org, certificateInput()).expect(201); // the organization exists with its free credits
    const before = await balance(org);
    const res = await issue(org, certificateInput({ template_id: template.id, custom_fields: { colour: 'blue' } })).expect(422);
    expect(res.body.details).toEqual([
      { path: 'custom_fields.grade', message: expect.stringContaining('required') },
      { path: 'custom_fields.colour', message: expect.stringContaining('not a custom field') },
    ]);
    expect(await balance(org)).toBe(before);
    expect(await certificateCount(org)).toBe(1);
  });

  it("custom fields without a template, another organization's template and an archived one are 422", async () => {
    const org = newOrg(ctx);
    const foreign = await createTemplate(ctx, newOrg(ctx));
    const archived = await createTemplate(ctx, org);
    await app().post(`/admin/v1/templates/${archived.id}/archive`).set('Authorization', org.admin()).expect(200);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ custom_fields: { grade: 'A' } }, 'custom_fields.grade', 'template_id'],
      [{ template_id: foreign.id, custom_fields: { grade: 'A' } }, 'template_id', 'does not name a template'],
      [{ template_id: archived.id, custom_fields: { grade: 'A' } }, 'template_id', 'archived'],
      [{ template_id: 'tpl_doesnotexist' }, 'template_id', 'does not name a template'],
    ];
    for (const [overrides, path, message] of cases) {
      const res = await issue(org, certificateInput(overrides)).expect(422);
      expect(res.body.details).toEqual([{ path, message: expect.stringContaining(message) }]);
    }
    expect(await certificateCount(org)).toBe(0);
  });
});

describe('a batch with templates', () => {
  it('JSON: rows may name different templates (or none); all are issued with their versions', async () => {
    const org = newOrg(ctx);
    const template = await createTemplate(ctx, org);
    const res = await batch(org, {
      certificates: [
        certificateInput({ recipient_name: 'Ada', template_id: template.id, custom_fields: { grade: 'A' } }),
        certificateInput({ recipient_name: 'Grace' }),
      ],
    }).expect(201);
    expectToMatchRouteTable(res);
    expect(res.body.data.map((c: { template_id: string | null; custom_fields: object }) => [c.template_id, c.custom_fields])).toEqual([
      [template.id, { grade: 'A' }],
      [null, {}],
    ]);
  });

  it('JSON: one bad row is a 422 naming every bad row, and nothing is issued or spent', async () => {
    const org = newOrg(ctx);
    const template = await createTemplate(ctx, org);
    await issue(org, certificateInput()).expect(201);
    const before = await balance(org);
    const res = await batch(org, {
      certificates: [
        certificateInput({ template_id: template.id, custom_fields: { grade: 'A' } }),
        certificateInput({ template_id: template.id }),
        certificateInput({ template_id: template.id, custom_fields: { grade: 'C', extra: 'x' } }),
      ],
    }).expect(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['certificates.1.custom_fields.grade', 'certificates.2.custom_fields.extra']);
    expect(await certificateCount(org)).toBe(1);
    expect(await balance(org)).toBe(before);
  });

  it('CSV: a template_id column and custom_fields.<key> columns', async () => {
    const org = newOrg(ctx);
    const template = await createTemplate(ctx, org);
    const csv = `recipient_name,program_title,issue_date,template_id,custom_fields.grade\nAda Lovelace,Engines,2026-05-01,${template.id},A\nGrace Hopper,Engines,2026-05-01,${template.id},B\n`;
    const res = await batch(org, csv).expect(201);
    expect(res.body.data.map((c: { custom_fields: { grade: string }; template_version: number }) => [c.custom_fields.grade, c.template_version])).toEqual([['A', 1], ['B', 1]]);
  });

  it('CSV: an empty required custom field cell is a 422 for that row only, and nothing is issued', async () => {
    const org = newOrg(ctx);
    const template = await createTemplate(ctx, org);
    const csv = `recipient_name,program_title,issue_date,template_id,custom_fields.grade\nAda Lovelace,Engines,2026-05-01,${template.id},A\nGrace Hopper,Engines,2026-05-01,${template.id},\n`;
    const res = await batch(org, csv).expect(422);
    expect(res.body.details).toEqual([{ path: 'certificates.1.custom_fields.grade', message: expect.stringContaining('required') }]);
    expect(await certificateCount(org)).toBe(0);
  });
});
