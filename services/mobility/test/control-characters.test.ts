import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, newAdmin } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
let partner: ReturnType<typeof partnerApi>;
let org: string;
let partnerAuth: string;
beforeAll(async () => {
  ctx = createTestContext({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  const key = await createPartnerKey(ctx);
  org = key.owner.org;
  partner = partnerApi(ctx, key.token);
  partnerAuth = `Bearer ${key.token}`;
});
afterAll(() => ctx.close());

const centre = randomCentre();
const rowsOf = async (table: string) => Number((await ctx.db(table).where({ partner_id: org }).count({ n: '*' }))[0]!.n);

function expectControlCharacterRefusal(res: request.Response, path: string) {
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ error: expect.any(String), code: 'validation_failed', details: expect.arrayContaining([{ path, message: expect.stringMatching(/control characters/) }]) });
}

describe('control characters in text fields: 422 with the field, nothing written', () => {
  it.each([
    ['a NUL', 'Ada\u0000Obi'],
    ['a bell', 'Ada\u0007Obi'],
    ['an escape', '\u001b[31mAda'],
    ['a DEL', 'Ada\u007f'],
  ])("refuses %s in a ride's passenger name", async (_label, name) => {
    const res = await partner.post('/api/v1/rides', rideBody(centre, { passenger: { name, phone: '+234 802 000 0000' } }));
    expectControlCharacterRefusal(res, 'passenger.name');
    expect(await rowsOf('rides')).toBe(0);
  });

  it('refuses a NUL in a delivery note', async () => {
    const res = await partner.post('/api/v1/deliveries', deliveryBody(centre, { notes: 'ring twice\u0000' }));
    expectControlCharacterRefusal(res, 'notes');
    expect(await rowsOf('deliveries')).toBe(0);
  });

  it("refuses a NUL in a webhook endpoint's description", async () => {
    const res = await partner.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', description: 'orders\u0000' });
    expectControlCharacterRefusal(res, 'description');
    expect(await rowsOf('webhook_endpoints')).toBe(0);
  });

  it("refuses a NUL in an API key's name", async () => {
    const owner = newAdmin();
    const res = await request(ctx.app)
      .post('/admin/v1/api-keys')
      .set('Authorization', `Bearer ${adminToken(ctx, owner)}`)
      .send({ name: 'server\u0000key', scopes: ['rides:read'] });
    expectControlCharacterRefusal(res, 'name');
    expect(await ctx.db('api_keys').where({ partner_id: owner.org }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it("refuses a NUL in a driver's name", async () => {
    const operator = newAdmin({ role: 'operator' });
    const res = await request(ctx.app)
      .post('/admin/v1/drivers')
      .set('Authorization', `Bearer ${adminToken(ctx, operator)}`)
      .send({ name: 'Musa\u0000', phone: '+2348031112222', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LND-1', color: 'Silver' } });
    expectControlCharacterRefusal(res, 'name');
    expect(await ctx.db('drivers').where({ organization_id: operator.org }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('refuses a NUL in a query string', async () => {
    const res = await partner.get('/api/v1/webhooks?cursor=%00');
    expectControlCharacterRefusal(res, 'cursor');
  });

  it('answers 404 for a path id holding a NUL', async () => {
    for (const path of ['/api/v1/rides/ride_%00', '/api/v1/deliveries/dlv_%00', '/api/v1/webhooks/whe_%00/deliveries']) {
      const res = await partner.get(path);
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    const removed = await request(ctx.app).delete('/api/v1/webhooks/whe_%00').set('Authorization', partnerAuth);
    expect([removed.status, removed.body.code]).toEqual([404, 'not_found']);
    const retried = await partner.post('/api/v1/webhooks/whe_%00/deliveries/%00/retry');
    expect([retried.status, retried.body.code]).toEqual([404, 'not_found']);
    const cancelled = await partner.post('/api/v1/rides/ride_%00/cancel');
    expect([cancelled.status, cancelled.body.code]).toEqual([404, 'not_found']);
  });

  it('keeps tab, line feed and carriage return in text', async () => {
    const res = await partner.post('/api/v1/deliveries', deliveryBody(centre, { notes: 'gate code:\t42\r\nleave at door' })).expect(201);
    expect(res.body.notes).toBe('gate code:\t42\r\nleave at door');
  });
});
