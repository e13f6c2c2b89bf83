import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, newOrg, type TestOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const INVALID = {
  type: 'https://docs.partner-platform.example/errors/invalid_api_key',
  title: 'Unauthorized',
  status: 401,
  detail: 'Invalid or revoked API key',
  error: 'Invalid or revoked API key',
  code: 'invalid_api_key',
};
const credits = (token: string) => request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${token}`);
const keys = (org: TestOrg) => ({
  create: (body: Record<string, unknown>) => request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send(body),
  rotate: (id: string, body?: Record<string, unknown>) => {
    const call = request(ctx.app).post(`/admin/v1/api-keys/${id}/rotate`).set('Authorization', org.admin());
    return body ? call.send(body) : call;
  },
  list: (query = '') => request(ctx.app).get(`/admin/v1/api-keys${query}`).set('Authorization', org.admin('member')),
});
const storedKey = (id: string) => ctx.db('api_keys').where({ id }).first();

describe('API key shape', () => {
  it('answers create, list, rotate and revoke with the same key fields, without scopes; the token only on create and rotate', async () => {
    const org = newOrg(ctx);
    const created = await keys(org).create({ name: 'shape' }).expect(201);
    const fields = ['id', 'name', 'status', 'livemode', 'token_hint', 'created_at', 'updated_at', 'last_used_at', 'expires_at', 'rotated_at', 'revoked_at', 'previous_token_expires_at'];
    expect(Object.keys(created.body).sort()).toEqual([...fields, 'token'].sort());
    expect(created.body).toMatchObject({ status: 'active', last_used_at: null, expires_at: null, token_hint: `${created.body.token.slice(0, 7)}…${created.body.token.slice(-4)}` });
    const listed = await keys(org).list().expect(200);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual([...fields].sort());
    const rotated = await keys(org).rotate(created.body.id).expect(200);
    expect(Object.keys(rotated.body).sort()).toEqual([...fields, 'token'].sort());
  });
});

describe('API key expiry', () => {
  it('works until expires_at, then answers the same 401 as a revoked key, shows status expired and cannot be rotated', async () => {
    const org = newOrg(ctx);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await keys(org).create({ name: 'temporary', expires_at: expiresAt }).expect(201);
    expect(created.body.expires_at).toBe(expiresAt);
    await credits(created.body.token).expect(200);

    await ctx.db('api_keys').where({ id: created.body.id }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect((await credits(created.body.token).expect(401)).body).toEqual(INVALID);
    expect((await keys(org).list().expect(200)).body.data[0]).toMatchObject({ id: created.body.id, status: 'expired' });
    const rotate = await keys(org).rotate(created.body.id).expect(409);
    expect(rotate.body).toMatchObject({ error: 'An expired API key cannot be rotated', code: 'api_key_expired' });
  });

  it.each([['in the past', new Date(Date.now() - 60_000).toISOString()], ['not a time', 'tomorrow'], ['without a zone', '2030-01-01T00:00:00'], ['a number', 1893456000]])(
    'refuses expires_at %s with 422 and creates nothing',
    async (_case, expiresAt) => {
      const org = newOrg(ctx);
      const res = await keys(org).create({ name: 'k', expires_at: expiresAt }).expect(422);
      expect(res.body.details[0].path).toBe('expires_at');
      expect(await ctx.db('api_keys').where({ organization_id: org.org })).toHaveLength(0);
    },
  );
});

describe('rotation with a grace period', () => {
  it('keeps the old token working until the grace period ends, then refuses it; the new one works throughout', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const rotated = await keys(org).rotate(key.id, { grace_seconds: 3600 }).expect(200);
    expect(Date.parse(rotated.body.previous_token_expires_at) - Date.now()).toBeGreaterThan(3_500_000);
    await credits(key.token).expect(200);
    await credits(rotated.body.token).expect(200);

    await ctx.db('api_keys').where({ id: key.id }).update({ previous_token_expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect((await credits(key.token).expect(401)).body).toEqual(INVALID);
    await credits(rotated.body.token).expect(200);
    expect((await keys(org).list().expect(200)).body.data[0].previous_token_expires_at).toBeNull();
  });

  it('ends the grace period when the key is revoked or rotated again', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const first = await keys(org).rotate(key.id, { grace_seconds: 600 }).expect(200);
    const second = await keys(org).rotate(key.id, { grace_seconds: 600 }).expect(200);
    expect((await credits(key.token).expect(401)).body).toEqual(INVALID);
    await credits(first.body.token).expect(200);
    await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/revoke`).set('Authorization', org.admin()).expect(200);
    for (const token of [first.body.token, second.body.token]) expect((await credits(token).expect(401)).body).toEqual(INVALID);
  });

  it.each([[-1], [86_401], [1.5], ['60'], [null]])('refuses grace_seconds %p with 422 and keeps the token', async (grace) => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const res = await keys(org).rotate(key.id, { grace_seconds: grace }).expect(422);
    expect(res.body.details[0].path).toBe('grace_seconds');
    await credits(key.token).expect(200);
    expect((await storedKey(key.id)).rotated_at).toBeNull();
  });
});

describe('last_used_at', () => {
  it('is written on use, at most once a minute per key', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    expect((await keys(org).list().expect(200)).body.data[0].last_used_at).toBeNull();

    await credits(key.token).expect(200);
    await ctx.services.apiKeys.flushUsage();
    const firstUse = (await storedKey(key.id)).last_used_at as Date;
    expect(firstUse).toBeInstanceOf(Date);
    expect((await keys(org).list().expect(200)).body.data[0].last_used_at).toBe(firstUse.toISOString());

    await credits(key.token).expect(200);
    await ctx.services.apiKeys.flushUsage();
    expect((await storedKey(key.id)).last_used_at).toEqual(firstUse);

    const [{ moved }] = await ctx.db('api_keys').where({ id: key.id }).update({ last_used_at: ctx.db.raw("now() - interval '61 seconds'") }).returning('last_used_at as moved');
    await credits(key.token).expect(200);
    await ctx.services.apiKeys.flushUsage();
    expect(((await storedKey(key.id)).last_used_at as Date).getTime()).toBeGreaterThan((moved as Date).getTime());
  });

  it('is not written for a refused request', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    await request(ctx.app).post(`/admin/v1/api-keys/${key.id}/revoke`).set('Authorization', org.admin()).expect(200);
    await credits(key.token).expect(401);
    await ctx.services.apiKeys.flushUsage();
    expect((await storedKey(key.id)).last_used_at).toBeNull();
  });
});

describe('key list paging', () => {
  it('pages newest first with limit and cursor, each key once', async () => {
    const org = newOrg(ctx);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createApiKey(ctx, org, `key ${i}`)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: request.Response = await keys(org).list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      seen.push(...page.body.data.map((key: { id: string }) => key.id));
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());
    expect((await keys(org).list().expect(200)).body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it.each(['?limit=0', '?limit=101', '?limit=abc', '?cursor=nonsense'])('refuses %s with 422', async (query) => {
    const res = await keys(newOrg(ctx)).list(query).expect(422);
    expect(res.body.code).toBe('validation_failed');
  });
});
