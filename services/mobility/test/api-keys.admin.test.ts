import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, newAdmin, suffix } from './factories/auth';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const asAdmin = (identity: ReturnType<typeof newAdmin>) => `Bearer ${adminToken(ctx, identity)}`;

describe('admin API keys', () => {
  it('creates a scoped key whose token is shown once, stores only its hash, and lists it without the token', async () => {
    const owner = newAdmin();
    const created = await request(ctx.app)
      .post('/admin/v1/api-keys')
      .set('Authorization', asAdmin(owner))
      .send({ name: 'Backend', scopes: ['rides:write', 'rides:read'] })
      .expect(201);
    expect(created.body).toMatchObject({ name: 'Backend', status: 'active', scopes: ['rides:write', 'rides:read'] });
    expect(created.body.id).toMatch(/^key_[0-9a-z]{20}$/);
    expect(created.body.token).toMatch(/^mk_[0-9A-Za-z]{36}$/);
    expect(typeof created.body.created_at).toBe('string');

    const row = await ctx.db('api_keys').where({ id: created.body.id }).first();
    expect(row.token_hash).toHaveLength(64);
    expect(JSON.stringify(row)).not.toContain(created.body.token);
    const partner = await ctx.db('partners').where({ id: owner.org }).first();
    expect(partner.name).toBe(owner.org_name);

    const listed = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', asAdmin({ ...owner, role: 'member' })).expect(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].id).toBe(created.body.id);
    expect(listed.body.data[0]).not.toHaveProperty('token');
  });

  it('requires scopes, each one of the six', async () => {
    const owner = newAdmin();
    const noScopes = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', asAdmin(owner)).send({ name: 'x' }).expect(422);
    expect(noScopes.body.details[0].path).toBe('scopes');
    const unknown = await request(ctx.app)
      .post('/admin/v1/api-keys')
      .set('Authorization', asAdmin(owner))
      .send({ name: 'x', scopes: ['rides:write', 'rides:delete'] })
      .expect(422);
    expect(unknown.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'scopes.1' }] });
  });

  it.each(['member', 'operator'] as const)('refuses a %s creating, rotating, revoking or deleting keys', async (role) => {
    const owner = newAdmin();
    const created = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', asAdmin(owner)).send({ name: 'k', scopes: ['rides:read'] }).expect(201);
    const other = asAdmin({ ...owner, sub: `user_${suffix()}`, role });
    expect((await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', other).send({ name: 'k', scopes: ['rides:read'] })).status).toBe(403);
    for (const action of ['rotate', 'revoke']) {
      const res = await request(ctx.app).post(`/admin/v1/api-keys/${created.body.id}/${action}`).set('Authorization', other).expect(403);
      expect(res.body.code).toBe('insufficient_role');
    }
    await request(ctx.app).delete(`/admin/v1/api-keys/${created.body.id}`).set('Authorization', other).expect(403);
  });

  it('rotates a key (new token), refuses to rotate a revoked one, and deletes with 204', async () => {
    const owner = newAdmin();
    const created = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', asAdmin(owner)).send({ name: 'k', scopes: ['rides:read'] }).expect(201);
    const rotated = await request(ctx.app).post(`/admin/v1/api-keys/${created.body.id}/rotate`).set('Authorization', asAdmin(owner)).expect(200);
    expect(rotated.body.token).toMatch(/^mk_/);
    expect(rotated.body.token).not.toBe(created.body.token);

    const revoked = await request(ctx.app).post(`/admin/v1/api-keys/${created.body.id}/revoke`).set('Authorization', asAdmin(owner)).expect(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: 'revoked' });
    const again = await request(ctx.app).post(`/admin/v1/api-keys/${created.body.id}/rotate`).set('Authorization', asAdmin(owner)).expect(409);
    expect(again.body.code).toBe('api_key_revoked');

    await request(ctx.app).delete(`/admin/v1/api-keys/${created.body.id}`).set('Authorization', asAdmin(owner)).expect(204);
    expect(await ctx.db('api_keys').where({ id: created.body.id }).first()).toBeUndefined();
  });

  it("answers 404 for another organization's key and for an id of the wrong shape", async () => {
    const owner = newAdmin();
    const created = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', asAdmin(owner)).send({ name: 'k', scopes: ['rides:read'] }).expect(201);
    const stranger = asAdmin(newAdmin());
    for (const path of [`/admin/v1/api-keys/${created.body.id}/rotate`, `/admin/v1/api-keys/${created.body.id}/revoke`, '/admin/v1/api-keys/not-an-id/revoke']) {
      const res = await request(ctx.app).post(path).set('Authorization', stranger).expect(404);
      expect(res.body.code).toBe('not_found');
    }
    await request(ctx.app).delete(`/admin/v1/api-keys/${created.body.id}`).set('Authorization', stranger).expect(404);
    const list = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', stranger).expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('refuses requests without a valid admin token', async () => {
    await request(ctx.app).get('/admin/v1/api-keys').expect(401);
    const res = await request(ctx.app).get('/admin/v1/api-keys').set('Authorization', 'Bearer nope').expect(401);
    expect(res.body.code).toBe('invalid_token');
  });
});
