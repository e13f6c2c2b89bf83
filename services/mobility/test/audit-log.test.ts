import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, newAdmin, type AdminIdentity } from './factories/auth';
import { registerDriver } from './factories/fleet';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'false', DRIVER_SIGNIN_TRUST_PROXY_HOPS: '1' });
});
afterAll(() => ctx.close());

const PUBLIC_URL = 'https://93.184.215.14/hooks/mobility';

/** Admin calls as `who`, from `address` (the gateway's X-Forwarded-For). */
const admin = (who: AdminIdentity, address = '203.0.113.9') => {
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    request(ctx.app)[method](`/admin/v1${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`).set('X-Forwarded-For', address);
  return {
    get: (path: string) => call('get', path),
    post: (path: string, body: object = {}) => call('post', path).send(body),
    patch: (path: string, body: object) => call('patch', path).send(body),
    delete: (path: string) => call('delete', path),
  };
};

describe('GET /admin/v1/audit-log (mobility)', () => {
  it('records endpoint, key and driver changes with who, when, what and from where; owners read them newest first', async () => {
    const owner = newAdmin();
    const operator = newAdmin({ org: owner.org, role: 'operator' });
    const created = await admin(operator, '198.51.100.4').post('/webhooks?mode=test', { url: PUBLIC_URL, events: ['ride.completed'] }).expect(201);
    await admin(operator).patch(`/webhooks/${created.body.id}?mode=test`, { enabled: false }).expect(200);
    await admin(operator).post(`/webhooks/${created.body.id}/rotate-secret?mode=test`).expect(200);
    await admin(operator).delete(`/webhooks/${created.body.id}?mode=test`).expect(204);
    const driver = await registerDriver(ctx, {}, operator);
    await admin(operator).post(`/drivers/${driver.id}/disable`).expect(200);
    await admin(operator).post('/webhooks', { url: 'not a url' }).expect(422); // refused: nothing recorded

    const res = await admin(owner).get('/audit-log').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.data.map((entry: { action: string }) => entry.action)).toEqual([
      'driver.disabled',
      'driver.registered',
      'webhook_endpoint.deleted',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.updated',
      'webhook_endpoint.created',
    ]);
    const entries = res.body.data as Record<string, unknown>[];
    expect(entries[5]).toMatchObject({
      organization_id: owner.org,
      actor_id: operator.sub,
      actor_role: 'operator',
      target_id: created.body.id,
      details: { url: PUBLIC_URL, events: ['ride.completed'], mode: 'test' },
      ip_address: '198.51.100.4',
    });
    expect(entries[4]).toMatchObject({ target_id: created.body.id, details: { enabled: false }, ip_address: '203.0.113.9' });
    // The mode of each change, and an update's or a delete's fields before and after (never the signing secret).
    expect(entries.map((entry) => entry.mode)).toEqual(['live', 'live', 'test', 'test', 'test', 'test']);
    expect(entries[4]).toMatchObject({ before: { status: 'enabled' }, after: { status: 'disabled' } });
    expect(entries[2]).toMatchObject({ before: { id: created.body.id, url: PUBLIC_URL, status: 'disabled', livemode: false }, after: null });
    expect(entries[0]).toMatchObject({ before: { disabled_at: null }, after: { disabled_at: expect.any(String) } });
    expect(entries[5]).toMatchObject({ before: null, after: null });
    expect(entries[1]).toMatchObject({ target_id: driver.id, details: { kind: 'driver', tier: 'economy' } });
    expect(JSON.stringify(res.body)).not.toContain(created.body.secret);
  });

  it('records a test event sent to an endpoint, and the keys an owner creates and revokes', async () => {
    const owner = newAdmin();
    const operator = newAdmin({ org: owner.org, role: 'operator' });
    const endpoint = await admin(operator).post('/webhooks', { url: PUBLIC_URL }).expect(201);
    const sent = await admin(operator).post(`/webhooks/${endpoint.body.id}/test`).expect(202);
    const key = await admin(owner).post('/api-keys', { name: 'Audited', scopes: ['rides:read'] }).expect(201);
    await admin(owner).post(`/api-keys/${key.body.id}/revoke`).expect(200);
    await admin(operator).post(`/api-keys/${key.body.id}/revoke`).expect(403); // refused: nothing recorded

    const entries = (await admin(owner).get('/audit-log').expect(200)).body.data as { action: string; target_id: string; actor_id: string }[];
    expect(entries.map((entry) => [entry.action, entry.target_id, entry.actor_id])).toEqual([
      ['api_key.revoked', key.body.id, owner.sub],
      ['api_key.created', key.body.id, owner.sub],
      ['webhook_endpoint.test_sent', endpoint.body.id, operator.sub],
      ['webhook_endpoint.created', endpoint.body.id, operator.sub],
    ]);
    expect(sent.body.endpoint_id).toBe(endpoint.body.id);
  });

  it('is for owners only, of their own organization; a bad cursor is 422', async () => {
    const owner = newAdmin();
    await admin(newAdmin({ role: 'operator' })).post('/webhooks', { url: PUBLIC_URL }).expect(201); // another organization
    expect((await admin(owner).get('/audit-log').expect(200)).body).toEqual({ data: [], has_more: false, next_cursor: null });
    expect((await admin(newAdmin({ org: owner.org, role: 'operator' })).get('/audit-log').expect(403)).body.code).toBe('insufficient_role');
    expect((await admin(owner).get('/audit-log?cursor=nope').expect(422)).body.code).toBe('validation_failed');
  });
});
