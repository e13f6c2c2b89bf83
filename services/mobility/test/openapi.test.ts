import request from 'supertest';
import { loadOpenApiDocument } from '@platform/service-kit';
import { OPENAPI_FILE } from '../src/openapi';
import { createTestContext, type TestContext } from './helpers/context';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('mobility OpenAPI description', () => {
  it('is served as JSON at GET /openapi.json, the same as openapi.yaml', async () => {
    const res = await request(ctx.app).get('/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(loadOpenApiDocument(OPENAPI_FILE));
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/estimates', '/api/v1/rides', '/driver/v1/offers']));
  });
});
