import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('mobility health', () => {
  it('is ready when Postgres and Redis answer', async () => {
    await request(ctx.app).get('/healthz').expect(200, { status: 'ok' });
    const res = await request(ctx.app).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'up' } });
  });

  it('answers unknown routes with JSON 404', async () => {
    const res = await request(ctx.app).get('/api/v1/unknown').expect(404);
    expect(res.body.code).toBe('route_not_found');
  });
});
