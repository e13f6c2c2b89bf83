import request from 'supertest';
import { verifyServiceSignature, verifyStandardWebhook } from '@platform/webhook-signature';
import { waitFor } from '@platform/test-kit';
import type { TestContext } from './helpers/context';
import { startDeliveringApp, stopDeliveringApp, type DeliveringApp } from './helpers/delivering-app';
import { createPartnerKey } from './factories/auth';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
let receiver: DeliveringApp['receiver'];

let started: DeliveringApp | undefined;
beforeAll(async () => {
  started = await startDeliveringApp();
  ({ ctx, receiver } = started);
});
afterAll(() => stopDeliveringApp(started));

describe('outgoing webhooks through the real API', () => {
  it('needs a key with webhooks:manage', async () => {
    const anonymous = await request(ctx.app).get('/api/v1/webhooks').expect(401);
    expect(anonymous.body).toMatchObject({ error: 'Missing API key', code: 'missing_api_key', status: 401 });
    const { token } = await createPartnerKey(ctx, { scopes: ['rides:read'] });
    const res = await request(ctx.app).get('/api/v1/webhooks').set('X-API-KEY', token).expect(403);
    expect(res.body).toMatchObject({ error: 'Missing required scope: webhooks:manage', code: 'insufficient_scope' });
  });

  it('delivers every status change of a ride, signed and numbered, to the partner that owns it only', async () => {
    const centre = randomCentre();
    const { token } = await createPartnerKey(ctx);
    const other = await createPartnerKey(ctx);
    const partner = partnerApi(ctx, token);
    const endpoint = (await partner.post('/api/v1/webhooks', { url: `${receiver.url}/hooks/mine` }).expect(201)).body;
    await partnerApi(ctx, other.token).post('/api/v1/webhooks', { url: `${receiver.url}/hooks/other` }).expect(201);

    const driver = await onlineDriver(ctx, offset(centre, 300, 200));
    const ride = (await partner.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const [offer] = await driver.app.offers();
    await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
    await driver.app.post(`/rides/${ride.id}/arrived`).expect(200);
    await driver.app.post(`/rides/${ride.id}/start`).expect(200);
    const completed = (await driver.app.post(`/rides/${ride.id}/complete`).expect(200)).body;

    const mine = () => receiver.requests.filter((r) => r.url === '/hooks/mine');
    await waitFor(() => mine().length >= 4, 'four deliveries');
    const deliveries = mine();
    const events = deliveries.map((d) => JSON.parse(d.body.toString('utf8')));
    expect(events.map((e) => e.type).sort()).toEqual(['ride.accepted', 'ride.arrived', 'ride.completed', 'ride.in_progress']);
    // Delivery order is not promised; the per-ride sequence lets a receiver drop an older status that arrives late.
    expect(events.map((e) => e.data.sequence).sort()).toEqual([1, 2, 3, 4]);
    const last = events.find((e) => e.type === 'ride.completed');
    expect(last.data).toEqual(completed);
    for (const delivery of deliveries) {
      expect(verifyServiceSignature(delivery.body, delivery.headers['x-service-signature'], endpoint.secret)).toBe(true);
      expect(verifyStandardWebhook(delivery.body, delivery.headers, endpoint.secret)).toBe(true);
      const tampered = Buffer.from(delivery.body.toString('utf8').replace('"ride.', '"ridx.'));
      expect(verifyServiceSignature(tampered, delivery.headers['x-service-signature'], endpoint.secret)).toBe(false);
      expect(verifyStandardWebhook(tampered, delivery.headers, endpoint.secret)).toBe(false);
    }
    expect(receiver.requests.filter((r) => r.url === '/hooks/other')).toHaveLength(0);
    const log = await partner.get(`/api/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
    expect(log.body.data).toHaveLength(4);
  });
});
