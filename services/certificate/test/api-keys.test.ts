import request from 'supertest';
import { signAdminToken, signJwt } from '@platform/service-kit/admin-auth';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, newOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const credits = (token: string) => request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${token}`);

describe('API keys (admin API)', () => {
  it('shows the token once on create and never in the list; only a hash is stored', async () => {
    const org = newOrg(ctx);
    const created = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'production' }).expect(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'production', status: 'active', token: expect.stringMatching(/^ck_[0-9A-Za-z]{36}$/) });
    expect(created.body.created_at).toMatch(/Z$/);
    const list = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', org.admin('member')).expect(200);
    expect(list.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    const stored = await ctx.db('api_keys').where({ id: created.body.id }).first();
    expect(JSON.stringify(stored)).not.toContain(created.body.token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('creates a live key by default or with mode live, a ck_test_ key with mode test, and refuses another mode with 422', async () => {
    const org = newOrg(ctx);
    const refused = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'staging', mode: 'sandbox' }).expect(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe('validation_failed');
    expect((await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', org.admin()).expect(200)).body.data).toEqual([]);
    const byDefault = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'production' }).expect(201);
    const live = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'production 2', mode: 'live' }).expect(201);
    const test = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'staging', mode: 'test' }).expect(201);
    expect([byDefault.body.livemode, live.body.livemode, test.body.livemode]).toEqual([true, true, false]);
    expect(byDefault.body.token).toMatch(/^ck_[0-9A-Za-z]{36}$/);
    expect(test.body.token).toMatch(/^ck_test_[0-9A-Za-z]{36}$/);
  });

  it('lets only owners create, rotate, revoke and delete keys', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    for (const role of ['member', 'operator'] as const) {
      const header = org.admin(role, `${role}_${org.org}`);
      const res = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', header).send({ name: 'x' }).expect(403);
      expect(res.body.code).toBe('insufficient_role');
      await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/rotate`).set('Authorization', header).expect(403);
      await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/revoke`).set('Authorization', header).expect(403);
      await request(ctx.app).delete(`/admin/v1/api-keys/${key.id}`).set('Authorization', header).expect(403);
    }
    await credits(key.token).expect(200);
  });

  it("treats another organization's key as not found", async () => {
    const mine = newOrg(ctx);
    const theirs = newOrg(ctx);
    const key = await createApiKey(ctx, theirs);
    for (const call of [
      request(ctx.app).post(`/admin/v1/api-keys/${key.id}/rotate`),
      request(ctx.app).post(`/admin/v1/api-keys/${key.id}/revoke`),
      request(ctx.app).delete(`/admin/v1/api-keys/${key.id}`),
    ]) {
      const res = await call.set('Authorization', mine.admin()).expect(404);
      expect(res.body).toMatchObject({ error: 'API key not found', code: 'not_found' });
    }
    await credits(key.token).expect(200);
  });

  it('rotates: the old token fails on the very next request, the new one works', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    await credits(key.token).expect(200);
    const rotated = await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/rotate`).set('Authorization', org.admin()).expect(200);
    expect(rotated.body).toMatchObject({ id: key.id, status: 'active' });
    expect(rotated.body.token).not.toBe(key.token);
    const old = await credits(key.token).expect(401);
    expect(old.body).toMatchObject({ error: 'Invalid or revoked API key', code: 'invalid_api_key' });
    await credits(rotated.body.token).expect(200);
  });

  it('revokes at once, keeps the record, and refuses to rotate a revoked key', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const revoked = await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/revoke`).set('Authorization', org.admin()).expect(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked', revoked_at: expect.stringMatching(/Z$/) });
    expect(revoked.body).not.toHaveProperty('token');
    expect((await credits(key.token).expect(401)).body.error).toBe('Invalid or revoked API key');
    const rotate = await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/rotate`).set('Authorization', org.admin()).expect(409);
    expect(rotate.body.code).toBe('api_key_revoked');
    const list = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', org.admin()).expect(200);
    expect(list.body.data[0]).toMatchObject({ id: key.id, status: 'revoked' });
  });

  it('deletes active and revoked keys: 204, then 401 and 404', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    await request(ctx.app).delete(`/admin/v1/api-keys/${key.id}`).set('Authorization', org.admin()).expect(204);
    expect((await credits(key.token).expect(401)).body.error).toBe('Invalid or revoked API key');
    await request(ctx.app).delete(`/admin/v1/api-keys/${key.id}`).set('Authorization', org.admin()).expect(404);
    const revoked = await createApiKey(ctx, org);
    await request(ctx.app).post(`/admin/v1/api-keys/${revoked.id}/revoke`).set('Authorization', org.admin()).expect(200);
    await request(ctx.app).delete(`/admin/v1/api-keys/${revoked.id}`).set('Authorization', org.admin()).expect(204);
  });

  it('validates the key name', async () => {
    const org = newOrg(ctx);
    const res = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 42 }).expect(422);
    expect(res.body.details[0].path).toBe('name');
    await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({}).expect(422);
    expect(await ctx.db('api_keys').where({ organization_id: org.org })).toHaveLength(0);
  });

  it('refuses the admin API without a valid dashboard token', async () => {
    const org = newOrg(ctx);
    await request(ctx.app).get('/admin/v1/api-keys').expect(401);
    const forged = signAdminToken({ sub: 'u', org: org.org, role: 'owner' }, 'another-secret-of-enough-length', { issuer: ctx.config.JWT_ISSUER });
    expect((await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', `Bearer ${forged}`).expect(401)).body.code).toBe('invalid_token');
    const noRole = signJwt({ sub: 'u', org: org.org, aud: 'admin', iss: ctx.config.JWT_ISSUER, exp: Math.floor(Date.now() / 1000) + 600 }, ctx.config.JWT_SECRET);
    await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', `Bearer ${noRole}`).expect(401);
    const unsigned = Buffer.from('{"alg":"none"}').toString('base64url') + '.' + Buffer.from(JSON.stringify({ sub: 'u', org: org.org, role: 'owner' })).toString('base64url') + '.';
    await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', `Bearer ${unsigned}`).expect(401);
  });
});

describe('public API authentication', () => {
  it('answers a missing key with 401 Missing API key', async () => {
    const res = await request(ctx.app).get('/api/v1/credits').expect(401);
    expect(res.body).toMatchObject({ error: 'Missing API key', code: 'missing_api_key' });
  });

  it.each(['nonsense', 'ck_' + 'a'.repeat(36), 'mk_' + 'a'.repeat(36), "ck_' or 1=1 --", 'x'.repeat(5000)])('answers bad key #%# with 401 Invalid or revoked API key', async (token) => {
    const res = await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${token}`).expect(401);
    expect(res.body).toMatchObject({ error: 'Invalid or revoked API key', code: 'invalid_api_key' });
  });
});
