import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const OVER_5_MB = 5 * 1024 * 1024 + 10;
const batch = () => request(ctx.app).post('/admin/v1/certificates/batch');

describe('POST /admin/v1/certificates/batch authenticates before reading the body', () => {
  it.each([
    ['CSV that is not CSV and over 5 MB', 'text/csv', `"unterminated,${'x'.repeat(OVER_5_MB)}`],
    ['JSON that is not JSON and over 5 MB', 'application/json', `{"certificates": [${'x'.repeat(OVER_5_MB)}`],
    ['JSON that is not JSON', 'application/json', '{"certificates": ['],
    ['a media type the route refuses', 'application/xml', '<certificates/>'],
  ])('answers 401 to %s without a token', async (_label, type, body) => {
    const res = await batch().set('Content-Type', type).send(body);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'Missing bearer token', code: 'missing_token' });
  });

  it('answers 401 to an oversized body with a forged token', async () => {
    const res = await batch().set('Authorization', 'Bearer not.a.jwt').set('Content-Type', 'text/csv').send('x'.repeat(OVER_5_MB));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
  });

  it('still reads the body of an authenticated call: oversized is 413, broken JSON 400, and nothing is issued', async () => {
    const org = newOrg(ctx);
    const big = await batch().set('Authorization', org.admin()).set('Content-Type', 'text/csv').send('x'.repeat(OVER_5_MB));
    expect(big.status).toBe(413);
    const broken = await batch().set('Authorization', org.admin()).set('Content-Type', 'application/json').send('{"certificates": [');
    expect(broken.status).toBe(400);
    expect(await ctx.db('certificates').where({ organization_id: org.org })).toHaveLength(0);
  });
});
