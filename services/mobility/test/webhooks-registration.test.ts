import request from 'supertest';
import type { Express } from 'express';
import { createTestContext, type TestContext } from './helpers/context';
import { newPartnerId, PARTNER_HEADER, webhookTestApp } from './helpers/webhooks';
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../src/features/webhook-endpoints/webhook-events';

// Production rules: https only, no private targets. A public IP literal needs no DNS in the test sandbox.
const PUBLIC_URL = 'https://93.184.215.14/hooks/mobility';

let ctx: TestContext;
let app: Express;
beforeAll(() => {
  ctx = createTestContext({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'false' });
  app = webhookTestApp(ctx.db, ctx.redis, ctx.config);
});
afterAll(() => ctx.close());

const as = (partnerId: string) => ({
  post: (path: string, body?: object) => request(app).post(path).set(PARTNER_HEADER, partnerId).send(body),
  get: (path: string) => request(app).get(path).set(PARTNER_HEADER, partnerId),
  delete: (path: string) => request(app).delete(path).set(PARTNER_HEADER, partnerId),
});

describe('webhook event types', () => {
  it('are one per status a ride or delivery can move into, the event passes\' three, then the opt-in positions; the description lists exactly those', async () => {
    expect(SUBSCRIBABLE_EVENT_TYPES).toEqual([
      'ride.accepted',
      'ride.arrived',
      'ride.in_progress',
      'ride.completed',
      'ride.cancelled',
      'ride.no_drivers_available',
      'delivery.courier_assigned',
      'delivery.picked_up',
      'delivery.delivered',
      'delivery.failed',
      'delivery.cancelled',
      'event_pass.redeemed',
      'event_pass.released',
      'event_pass_program.budget_exhausted',
      'ride.location_updated',
      'delivery.courier_location_updated',
    ]);
    const description = await request(ctx.app).get('/openapi.json').expect(200);
    expect(description.body.components.schemas.WebhookEventType.enum).toEqual([...SUBSCRIBABLE_EVENT_TYPES]);
    const refused = await as(newPartnerId()).post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['ride.pending'] }).expect(422);
    expect(JSON.stringify(refused.body)).toContain('must be one of ride.accepted');
  });
});

describe('POST /api/v1/webhooks', () => {
  it('registers an endpoint for every event type and shows its whsec_ secret once', async () => {
    const partner = newPartnerId();
    const res = await as(partner).post('/api/v1/webhooks', { url: PUBLIC_URL, description: 'ops' }).expect(201);
    expect(res.body).toEqual(
      expect.objectContaining({ url: PUBLIC_URL, events: [...WEBHOOK_EVENT_TYPES], status: 'enabled', description: 'ops' }),
    );
    expect(res.body.id).toMatch(/^whe_[0-9a-z]{20}$/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(14);

    const list = await as(partner).get('/api/v1/webhooks').expect(200);
    expect(list.body).toEqual({ data: [expect.objectContaining({ id: res.body.id, url: PUBLIC_URL, status: 'enabled' })], has_more: false, next_cursor: null });
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    expect(list.body.data[0]).not.toHaveProperty('secret');
  });

  it('keeps only the events asked for, once each', async () => {
    const res = await as(newPartnerId()).post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['ride.completed', 'delivery.delivered', 'ride.completed'] }).expect(201);
    expect(res.body.events).toEqual(['ride.completed', 'delivery.delivered']);
  });

  it.each([
    ['an unknown event', { url: PUBLIC_URL, events: ['ride.teleported'] }, 'events.0'],
    ['an empty event list', { url: PUBLIC_URL, events: [] }, 'events'],
    ['events as a string', { url: PUBLIC_URL, events: 'ride.completed' }, 'events'],
    ['no url', {}, 'url'],
    ['a url that is not one', { url: 'not a url' }, 'url'],
    ['a description over 500 characters', { url: PUBLIC_URL, description: 'x'.repeat(501) }, 'description'],
  ])('refuses %s with 422 naming the field', async (_label, body, path) => {
    const res = await as(newPartnerId()).post('/api/v1/webhooks', body).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it.each([
    'http://93.184.215.14/hooks',
    'https://127.0.0.1/hooks',
    'https://127.1.2.3:8443/hooks',
    'https://10.0.0.1/hooks',
    'https://172.16.5.4/hooks',
    'https://192.168.1.1/hooks',
    'https://100.64.0.1/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/hooks',
    'https://2130706433/hooks', // 127.0.0.1 spelled as one number
    'https://0x7f.0.0.1/hooks',
    'https://224.0.0.1/hooks',
    'https://[::1]/hooks',
    'https://[::]/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://[::ffff:10.0.0.1]/hooks',
    'https://[fe80::1]/hooks',
    'https://[fd12:3456::1]/hooks',
    'https://[ff02::1]/hooks',
    'https://localhost/hooks',
    'https://localhost./hooks',
    'https://user:pass@93.184.215.14/hooks',
    'ftp://93.184.215.14/hooks',
    'https://no-such-host.invalid/hooks',
  ])('refuses %s with 422 on url', async (url) => {
    const partner = newPartnerId();
    const res = await as(partner).post('/api/v1/webhooks', { url }).expect(422);
    expect(res.body).toMatchObject({ error: 'Request validation failed', code: 'validation_failed', details: [{ path: 'url', message: expect.any(String) }] });
    const list = await as(partner).get('/api/v1/webhooks').expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('answers every refusal with one message, so a host that does not resolve reads like a forbidden one', async () => {
    const answers = [];
    for (const url of ['https://localhost/hooks', 'https://no-such-host.invalid/hooks', 'https://10.0.0.1/hooks', 'http://93.184.215.14/hooks', 'https://user:pass@93.184.215.14/hooks']) {
      const res = await as(newPartnerId()).post('/api/v1/webhooks', { url }).expect(422);
      expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|::1|localhost|no-such-host|resolve\b(?! only)/);
      answers.push(res.body);
    }
    const expected = { error: 'Request validation failed', code: 'validation_failed', details: [{ path: 'url', message: 'must be a public https:// URL without credentials whose host resolves only to public addresses' }] };
    for (const body of answers) expect(body).toMatchObject(expected);
  });

  it('answers 401 without a partner, and the service itself answers 401 Missing API key without a key', async () => {
    await request(app).post('/api/v1/webhooks').send({ url: PUBLIC_URL }).expect(401);
    const res = await request(ctx.app).get('/api/v1/webhooks').expect(401);
    expect(res.body).toMatchObject({ error: 'Missing API key', code: 'missing_api_key' });
  });

  it('follows the JSON conventions: 415 for a non-JSON body, 400 for bad JSON', async () => {
    const partner = newPartnerId();
    await request(app).post('/api/v1/webhooks').set(PARTNER_HEADER, partner).set('Content-Type', 'text/plain').send('url=x').expect(415);
    await request(app).post('/api/v1/webhooks').set(PARTNER_HEADER, partner).set('Content-Type', 'application/json').send('{"url":').expect(400);
  });
});

describe('GET /api/v1/webhooks', () => {
  it('lists only the partner’s endpoints, newest first, a page at a time', async () => {
    const partner = newPartnerId();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await as(partner).post('/api/v1/webhooks', { url: `${PUBLIC_URL}/${i}` }).expect(201)).body.id);
    await as(newPartnerId()).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201);

    const first = await as(partner).get('/api/v1/webhooks?limit=2').expect(200);
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
    const second = await as(partner).get(`/api/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], has_more: false, next_cursor: null });
  });
});

describe('GET /api/v1/webhooks/{id}', () => {
  it("answers one endpoint without its secret; another partner's, or a malformed id, is a 404", async () => {
    const partner = newPartnerId();
    const created = await as(partner).post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['ride.completed'] }).expect(201);
    const res = await as(partner).get(`/api/v1/webhooks/${created.body.id}`).expect(200);
    expect(res.body).toEqual(expect.objectContaining({ id: created.body.id, url: PUBLIC_URL, events: ['ride.completed'], status: 'enabled' }));
    expect(res.body).not.toHaveProperty('secret');
    expect(JSON.stringify(res.body)).not.toContain(created.body.secret);
    const other = await as(newPartnerId()).get(`/api/v1/webhooks/${created.body.id}`).expect(404);
    expect(other.headers['content-type']).toMatch(/application\/problem\+json/);
    await as(partner).get('/api/v1/webhooks/whe_nope').expect(404);
  });
});

describe('DELETE /api/v1/webhooks/{id}', () => {
  it('deletes the endpoint: 204, then 404; another partner gets 404 and keeps nothing from it', async () => {
    const owner = newPartnerId();
    const { body } = await as(owner).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201);
    await as(newPartnerId()).delete(`/api/v1/webhooks/${body.id}`).expect(404);
    await as(newPartnerId()).get(`/api/v1/webhooks/${body.id}/deliveries`).expect(404);
    await as(owner).delete(`/api/v1/webhooks/${body.id}`).expect(204);
    await as(owner).delete(`/api/v1/webhooks/${body.id}`).expect(404);
    expect((await as(owner).get('/api/v1/webhooks').expect(200)).body.data).toEqual([]);
  });

  it('answers 404, not 500, for IDs of the wrong shape', async () => {
    const partner = newPartnerId();
    await as(partner).delete('/api/v1/webhooks/not-an-id').expect(404);
    await as(partner).get('/api/v1/webhooks/ride_123/deliveries').expect(404);
    const { body } = await as(partner).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201);
    const res = await as(partner).post(`/api/v1/webhooks/${body.id}/deliveries/whd_nope/retry`).expect(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('endpoint limits', () => {
  const capped = () => webhookTestApp(ctx.db, ctx.redis, { ...ctx.config, WEBHOOK_MAX_ENDPOINTS_PER_PARTNER: 3 });

  it('refuses the same URL twice for one partner with 409 duplicate_webhook_url (spelled differently too)', async () => {
    const partner = newPartnerId();
    await as(partner).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201);
    const res = await as(partner).post('/api/v1/webhooks', { url: 'HTTPS://93.184.215.14:443/hooks/mobility' }).expect(409);
    expect(res.body).toMatchObject({ error: expect.any(String), code: 'duplicate_webhook_url' });
    await as(newPartnerId()).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201); // another partner may
    expect((await as(partner).get('/api/v1/webhooks').expect(200)).body.data).toHaveLength(1);
  });

  it('accepts the URL of a disabled endpoint again (resuming after a 410)', async () => {
    const partner = newPartnerId();
    const { body } = await as(partner).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201);
    await ctx.db('webhook_endpoints').where({ id: body.id }).update({ status: 'disabled', disabled_reason: 'The endpoint answered 410 Gone' });
    await as(partner).post('/api/v1/webhooks', { url: PUBLIC_URL }).expect(201);
  });

  it('allows WEBHOOK_MAX_ENDPOINTS_PER_PARTNER endpoints, then 409 webhook_endpoint_limit_reached, even when asked at once', async () => {
    const partner = newPartnerId();
    const app = capped();
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => request(app).post('/api/v1/webhooks').set(PARTNER_HEADER, partner).send({ url: `${PUBLIC_URL}/${i}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ error: 'At most 3 webhook endpoints per partner; delete one to register another', code: 'webhook_endpoint_limit_reached' });
    const list = await request(app).get('/api/v1/webhooks').set(PARTNER_HEADER, partner).expect(200);
    expect(list.body.data).toHaveLength(3);

    await request(app).delete(`/api/v1/webhooks/${list.body.data[0].id}`).set(PARTNER_HEADER, partner).expect(204);
    await request(app).post('/api/v1/webhooks').set(PARTNER_HEADER, partner).send({ url: `${PUBLIC_URL}/again` }).expect(201);
  });
});
