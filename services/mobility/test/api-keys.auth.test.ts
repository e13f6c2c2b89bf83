import request from 'supertest';
import { generateApiToken } from '@platform/api-keys';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey } from './factories/auth';
import { randomCentre, offset } from './factories/fleet';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const centre = randomCentre();
const estimateBody = { pickup: centre, dropoff: offset(centre, 1000, 1000) };
const estimate = (auth: Record<string, string>) => request(ctx.app).post('/api/v1/estimates').set(auth).send(estimateBody);

describe('partner API key authentication', () => {
  it('accepts the key as a Bearer token or in X-API-KEY', async () => {
    const { token } = await createPartnerKey(ctx, { scopes: ['estimates:read'] });
    await estimate({ Authorization: `Bearer ${token}` }).expect(200);
    await estimate({ 'X-API-KEY': token }).expect(200);
  });

  it('answers 401 Missing API key without one', async () => {
    const res = await estimate({}).expect(401);
    expect(res.body).toMatchObject({ error: 'Missing API key', code: 'missing_api_key', status: 401, detail: 'Missing API key' });
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses malformed, unknown and other-service tokens with the same 401', async () => {
    const { token } = await createPartnerKey(ctx, { scopes: ['estimates:read'] });
    const mistyped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['nope', mistyped, generateApiToken('mk_'), generateApiToken('ck_')]) {
      const res = await estimate({ 'X-API-KEY': bad }).expect(401);
      expect(res.body).toMatchObject({ error: 'Invalid or revoked API key', code: 'invalid_api_key' });
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
  });

  it('refuses a rotated-away, revoked or deleted key on the very next request', async () => {
    const { token, keyId, owner } = await createPartnerKey(ctx, { scopes: ['estimates:read'] });
    const admin = { Authorization: `Bearer ${adminToken(ctx, owner)}` };
    const rotated = await request(ctx.app).post(`/admin/v1/api-keys/${keyId}/rotate`).set(admin).expect(200);
    expect((await estimate({ 'X-API-KEY': token }).expect(401)).body.error).toBe('Invalid or revoked API key');
    await estimate({ 'X-API-KEY': rotated.body.token }).expect(200);

    await request(ctx.app).post(`/admin/v1/api-keys/${keyId}/revoke`).set(admin).expect(200);
    expect((await estimate({ 'X-API-KEY': rotated.body.token }).expect(401)).body.code).toBe('invalid_api_key');

    const second = await createPartnerKey(ctx, { scopes: ['estimates:read'], owner });
    await request(ctx.app).delete(`/admin/v1/api-keys/${second.keyId}`).set(admin).expect(204);
    expect((await estimate({ 'X-API-KEY': second.token }).expect(401)).body.error).toBe('Invalid or revoked API key');
  });

  it('answers 403 naming the missing scope', async () => {
    const { token } = await createPartnerKey(ctx, { scopes: ['estimates:read', 'rides:read'] });
    const res = await request(ctx.app)
      .post('/api/v1/rides')
      .set('Authorization', `Bearer ${token}`)
      .send({ pickup: centre, dropoff: centre, tier: 'economy', passenger: { name: 'A', phone: '+2348000000' } })
      .expect(403);
    expect(res.body).toMatchObject({ error: 'Missing required scope: rides:write', code: 'insufficient_scope', status: 403 });
    expect(res.headers['x-accepted-scopes']).toBe('rides:write');
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="rides:write"');
    const noEstimates = await createPartnerKey(ctx, { scopes: ['rides:write'] });
    expect((await estimate({ 'X-API-KEY': noEstimates.token }).expect(403)).body.error).toBe('Missing required scope: estimates:read');
    const noRead = await request(ctx.app).get('/api/v1/rides/ride_00000000000000000000').set('X-API-KEY', noEstimates.token).expect(403);
    expect(noRead.body.error).toBe('Missing required scope: rides:read');
  });
});
