import request from 'supertest';
import { signAdminToken } from '@platform/service-kit/admin-auth';
import { createTestContext, type TestContext } from './helpers/context';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('HTTP conventions every route shares', () => {
  it('answers /healthz and /readyz with 200 when Postgres answers', async () => {
    await request(ctx.app).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(ctx.app).get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { postgres: 'up' } });
  });

  it('serves Prometheus metrics', async () => {
    await request(ctx.app).get('/healthz');
    const res = await request(ctx.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await request(ctx.app).get('/nope').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
  });

  it('answers a known path with a method it does not take as 405 with Allow', async () => {
    const res = await request(ctx.app).delete('/api/v1/credits').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 405, code: 'method_not_allowed', title: 'Method Not Allowed' });
    const revoke = await request(ctx.app).get('/admin/v1/certificates/cert_x/revoke').set('Authorization', 'Bearer x').expect(401);
    expect(revoke.body.code).toBe('invalid_token'); // authentication comes first on the admin API
  });

  it('challenges a missing or bad admin token with WWW-Authenticate: Bearer', async () => {
    const missing = await request(ctx.app).get('/admin/v1/plans').expect(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const bad = await request(ctx.app).get('/admin/v1/plans').set('Authorization', 'Bearer not-a-jwt').expect(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(bad.body).toMatchObject({ code: 'invalid_token', status: 401, type: 'https://docs.partner-platform.example/errors/invalid_token' });
  });

  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const given = await request(ctx.app).get('/healthz').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await request(ctx.app).get('/healthz').set('X-Request-Id', 'bad id with spaces');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a non-JSON body with 415, bad JSON with 400 and an oversize body with 413, all as JSON', async () => {
    const owner = signAdminToken({ sub: 'acc_conventions', org: 'org_conventions', role: 'owner' }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
    const issue = () => request(ctx.app).post('/admin/v1/certificates').set('Authorization', `Bearer ${owner}`);
    const wrongType = await issue().set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(wrongType.body.code).toBe('unsupported_media_type');
    const badJson = await issue().set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(badJson.body).toMatchObject({ error: 'Request body is not valid JSON', code: 'invalid_json' });
    const big = await issue()
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(101 * 1024) }))
      .expect(413);
    expect(big.body.code).toBe('payload_too_large');
    expect(await ctx.db('certificates').where({ organization_id: 'org_conventions' })).toEqual([]);
  });

  it('answers a malformed percent-encoding in the path with JSON, not HTML', async () => {
    const res = await request(ctx.app).get('/api/v1/verify/%E0%A4%A');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
