/**
 * The admin lists the dashboard shows "newest first": certificates and templates come ordered by created_at, then id,
 * both descending (never by their random ids), and the cursor walks that order page by page.
 */
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { certificateInput, newOrg, type TestOrg } from './factories/admin';
import { createTemplate } from './factories/templates';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/**
 * Gives the rows creation times that disagree with their id order: of ids a < b < c < d, b is the newest, then d, then
 * a and c at the same instant (the tie broken by id: c before a). Returns the expected newest-first order.
 */
async function scrambleCreationTimes(table: 'certificates' | 'templates', ids: string[]): Promise<string[]> {
  const [a, b, c, d] = [...ids].sort();
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
  await ctx.db(table).where({ id: b }).update({ created_at: at(30) });
  await ctx.db(table).where({ id: d }).update({ created_at: at(20) });
  await ctx.db(table).whereIn('id', [a!, c!]).update({ created_at: at(10) });
  return [b!, d!, c!, a!];
}

async function walk(org: TestOrg, path: string, cursorName: 'cursor' | 'starting_after'): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const res = await request(ctx.app).get(path).query({ limit: 1, [cursorName]: cursor }).set('Authorization', org.admin()).expect(200);
    seen.push(...res.body.data.map((row: { id: string }) => row.id));
    if (!res.body.has_more) break;
    cursor = res.body.next_cursor;
  }
  return seen;
}

describe('newest first', () => {
  it('lists certificates by created_at then id, descending, one page after another', async () => {
    const org = newOrg(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(ctx.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput()).expect(201);
      ids.push(res.body.id);
    }
    const expected = await scrambleCreationTimes('certificates', ids);
    const all = await request(ctx.app).get('/admin/v1/certificates').set('Authorization', org.admin()).expect(200);
    expect(all.body.data.map((row: { id: string }) => row.id)).toEqual(expected);
    expect(await walk(org, '/admin/v1/certificates', 'cursor')).toEqual(expected);
  });

  it('lists templates by created_at then id, descending, one page after another', async () => {
    const org = newOrg(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createTemplate(ctx, org, { name: `Template ${i}` })).id);
    const expected = await scrambleCreationTimes('templates', ids);
    const all = await request(ctx.app).get('/admin/v1/templates').set('Authorization', org.admin()).expect(200);
    expect(all.body.data.map((row: { id: string }) => row.id)).toEqual(expected);
    expect(await walk(org, '/admin/v1/templates', 'starting_after')).toEqual(expected);
  });

  it('a cursor of another organization or unknown id gives an empty page, not another organization\'s rows', async () => {
    const org = newOrg(ctx);
    const other = newOrg(ctx);
    const res = await request(ctx.app).post('/admin/v1/certificates').set('Authorization', other.admin()).send(certificateInput()).expect(201);
    await request(ctx.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput()).expect(201);
    const page = await request(ctx.app).get('/admin/v1/certificates').query({ cursor: res.body.id }).set('Authorization', org.admin()).expect(200);
    expect(page.body).toMatchObject({ data: [], has_more: false });
  });
});
