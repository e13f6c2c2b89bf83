import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, newAdmin, type AdminIdentity } from './factories/auth';
import { offset, randomCentre } from './factories/fleet';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(async () => {
  await ctx.services.apiKeys.flushUsage();
  await ctx.close();
});

const INVALID = {
  type: 'https://docs.partner-platform.example/errors/invalid_api_key',
  title: 'Unauthorized',
  status: 401,
  detail: 'Invalid or revoked API key',
  error: 'Invalid or revoked API key',
  code: 'invalid_api_key',
};
const centre = randomCentre();
const estimate = (token: string) => request(ctx.app).post('/api/v1/estimates').set('X-API-KEY', token).send({ pickup: centre, dropoff: offset(centre, 800, 600) });
const asOwner = (owner: AdminIdentity) => `Bearer ${adminToken(ctx, owner)}`;
const listKeys = (owner: AdminIdentity, query = '') => request(ctx.app).get(`/admin/v1/api-keys${query}`).set('Authorization', asOwner(owner));
const rowOf = (id: string) => ctx.db('api_keys').where({ id }).first();

describe('mobility API keys: the shared life cycle', () => {
  it('answers the shared key shape with scopes, and an expires_at set at creation', async () => {
    const owner = newAdmin();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await request(ctx.app)
      .post('/admin/v1/api-keys')
      .set('Authorization', asOwner(owner))
      .send({ name: 'nightly', scopes: ['estimates:read'], expires_at: expiresAt })
      .expect(201);
    expect(created.body).toMatchObject({ status: 'active', scopes: ['estimates:read'], expires_at: expiresAt, last_used_at: null, rotated_at: null, revoked_at: null });
    expect(created.body.token_hint).toBe(`${created.body.token.slice(0, 7)}…${created.body.token.slice(-4)}`);
    await estimate(created.body.token).expect(200);

    await ctx.db('api_keys').where({ id: created.body.id }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect((await estimate(created.body.token).expect(401)).body).toEqual(INVALID);
    expect((await listKeys(owner).expect(200)).body.data[0]).toMatchObject({ id: created.body.id, status: 'expired' });
  });

  it('keeps a rotated-away token working through X-API-KEY for the grace period only', async () => {
    const { owner, keyId, token } = await createPartnerKey(ctx, { scopes: ['estimates:read'] });
    const rotated = await request(ctx.app).post(`/admin/v1/api-keys/${keyId}/rotate`).set('Authorization', asOwner(owner)).send({ grace_seconds: 120 }).expect(200);
    expect(rotated.body.scopes).toEqual(['estimates:read']);
    await estimate(token).expect(200);
    await estimate(rotated.body.token).expect(200);

    await ctx.db('api_keys').where({ id: keyId }).update({ previous_token_expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect((await estimate(token).expect(401)).body).toEqual(INVALID);
    await estimate(rotated.body.token).expect(200);
  });

  it('refuses a grace period over a day and keeps the token', async () => {
    const { owner, keyId, token } = await createPartnerKey(ctx, { scopes: ['estimates:read'] });
    const res = await request(ctx.app).post(`/admin/v1/api-keys/${keyId}/rotate`).set('Authorization', asOwner(owner)).send({ grace_seconds: 86_401 }).expect(422);
    expect(res.body.details[0].path).toBe('grace_seconds');
    await estimate(token).expect(200);
  });

  it('records last_used_at on use, once a minute at most', async () => {
    const { owner, keyId, token } = await createPartnerKey(ctx, { scopes: ['estimates:read'] });
    await estimate(token).expect(200);
    await ctx.services.apiKeys.flushUsage();
    const firstUse = (await rowOf(keyId)).last_used_at as Date;
    expect((await listKeys(owner).expect(200)).body.data[0].last_used_at).toBe(firstUse.toISOString());

    await ctx.db('api_keys').where({ id: keyId }).update({ last_used_at: ctx.db.raw("now() - interval '30 seconds'") });
    const recent = (await rowOf(keyId)).last_used_at as Date;
    await estimate(token).expect(200);
    await ctx.services.apiKeys.flushUsage();
    expect((await rowOf(keyId)).last_used_at).toEqual(recent);

    await ctx.db('api_keys').where({ id: keyId }).update({ last_used_at: ctx.db.raw("now() - interval '2 minutes'") });
    const old = (await rowOf(keyId)).last_used_at as Date;
    await estimate(token).expect(200);
    await ctx.services.apiKeys.flushUsage();
    expect(((await rowOf(keyId)).last_used_at as Date).getTime()).toBeGreaterThan(old.getTime());
  });

  it('pages the key list with limit and cursor', async () => {
    const owner = newAdmin();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.unshift((await createPartnerKey(ctx, { scopes: ['rides:read'], owner })).keyId);
    const first = await listKeys(owner, '?limit=2').expect(200);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
    expect(first.body.data.map((k: { id: string }) => k.id)).toEqual(ids.slice(0, 2));
    const second = await listKeys(owner, `?limit=2&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((k: { id: string }) => k.id)).toEqual(ids.slice(2));
  });
});
