import { createServer } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createApp as createGateway } from '@platform/gateway';
import { listen, type RunningServer } from '@platform/test-kit';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey, driverToken } from './factories/auth';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { offset, onlineDriver, randomCentre } from './factories/fleet';

let ctx: TestContext;
let service: RunningServer;
let gateway: RunningServer;

beforeAll(async () => {
  ctx = createTestContext();
  service = await listen(createServer(ctx.app));
  const app = createGateway({
    config: { CERTIFICATE_URL: 'http://127.0.0.1:9', MOBILITY_URL: service.url, UPSTREAM_TIMEOUT_MS: 5000 },
    logger: pino({ level: 'silent' }),
  });
  gateway = await listen(createServer(app));
});
afterAll(async () => {
  await gateway.close();
  await service.close();
  await ctx.close();
});

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

describe('a delivery through the gateway, from request to proof of delivery', () => {
  it('dispatches to a courier, tracks it, and completes with the PIN at the drop-off', async () => {
    const centre = randomCentre();
    const { token } = await createPartnerKey(ctx);
    const partner = {
      post: (path: string, body: object) => request(gateway.url).post(path).set('Authorization', `Bearer ${token}`).send(body),
      get: (path: string) => request(gateway.url).get(path).set('Authorization', `Bearer ${token}`),
    };
    const courierAuth = (id: string) => `Bearer ${driverToken(ctx, id)}`;
    const rideDriver = await onlineDriver(ctx, offset(centre, 50, 0)); // nearer, but not a courier
    const courier = await onlineCourier(ctx, offset(centre, 300, 200));
    const courierApp = {
      post: (path: string, body: object = {}) => request(gateway.url).post(`/driver/v1${path}`).set('Authorization', courierAuth(courier.id)).send(body),
      get: (path: string) => request(gateway.url).get(`/driver/v1${path}`).set('Authorization', courierAuth(courier.id)),
    };

    const body = deliveryBody(centre, { notes: 'Fragile: glassware' });
    const created = await partner.post('/api/v1/deliveries', body).set('Idempotency-Key', `dlv-${centre.lat}`).expect(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      weight_tier: 'small',
      courier: null,
      courier_location: null,
      proof_of_delivery: null,
      failure_reason: null,
      notes: 'Fragile: glassware',
      sequence: 0,
      recipient: { name: 'Chidi Eze', phone: '+234 804 222 2222' },
    });
    expect(created.body.id).toMatch(/^dlv_[0-9a-z]{20}$/);
    expect(created.body.fee).toEqual({ amount: expect.any(Number), currency: 'NGN' });
    expect(created.body.fee.amount).toBeGreaterThan(0);
    const pin = created.body.security_pin as string;
    expect(pin).toMatch(/^[0-9]{6}$/);
    const id = created.body.id as string;

    // A retry with the same key replays the delivery, but the PIN was only ever in the first answer.
    const replay = await partner.post('/api/v1/deliveries', body).set('Idempotency-Key', `dlv-${centre.lat}`).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(id);
    expect(replay.body).not.toHaveProperty('security_pin');

    expect((await request(gateway.url).get('/driver/v1/offers').set('Authorization', courierAuth(rideDriver.id)).expect(200)).body.data).toEqual([]);
    const [offer] = (await courierApp.get('/offers').expect(200)).body.data;
    expect(offer).toMatchObject({ kind: 'delivery', delivery_id: id, pickup: { lat: centre.lat, lng: centre.lng } });
    expect(offer).not.toHaveProperty('ride_id');

    const accepted = await courierApp.post(`/offers/${offer.id}/accept`).expect(200);
    expect(accepted.body).toMatchObject({ id, status: 'courier_assigned', sequence: 1 });
    expect(accepted.body.courier).toEqual({
      id: courier.id,
      name: courier.name,
      phone: '+234 801 234 5678',
      rating: 5,
      vehicle: { make: 'Honda', model: 'CG125', plate: expect.any(String), color: 'red' },
    });

    await courierApp.post('/location', { ...centre, heading: 10, speed_kph: 12 }).expect(200);
    const atPickup = await partner.get(`/api/v1/deliveries/${id}`).expect(200);
    expect(atPickup.body.courier_location).toEqual({ ...centre, heading: 10, speed_kph: 12, updated_at: expect.any(String) });

    const pickedUp = await courierApp.post(`/deliveries/${id}/pickup`).expect(200);
    expect(pickedUp.body).toMatchObject({ status: 'picked_up', sequence: 2 });

    const door = { lat: body.dropoff.lat, lng: body.dropoff.lng };
    await courierApp.post('/location', { ...door, heading: 200, speed_kph: 0 }).expect(200);
    const delivered = await courierApp
      .post(`/deliveries/${id}/deliver`, { pin, received_by: 'Chidi (recipient)', photo_url: 'https://photos.example.com/pod/1.jpg' })
      .expect(200);
    expect(delivered.body).toMatchObject({ status: 'delivered', sequence: 3, courier_location: null });
    expect(delivered.body.proof_of_delivery).toEqual({
      pin_verified: true,
      received_by: 'Chidi (recipient)',
      photo_url: 'https://photos.example.com/pod/1.jpg',
      delivered_at: expect.any(String),
      location: door,
    });

    const read = await partner.get(`/api/v1/deliveries/${id}`).expect(200);
    expect(read.body).toEqual(delivered.body);
    for (const text of [created.text, replay.text, read.text, delivered.text]) {
      expect(text).not.toMatch(/pin_hash|scrypt|pin_failed/);
    }
    expect(read.text).not.toContain(`"${pin}"`);
    expect(keysOf(read.body).filter((k) => /pin/i.test(k))).toEqual(['pin_verified']);
    expect(keysOf(created.body).filter((k) => /pin/i.test(k))).toEqual(['security_pin']);

    const events = await ctx.db('outbox_events').where({ object_id: id }).orderBy('sequence');
    expect(events.map((e) => [e.type, e.sequence, e.object_type])).toEqual([
      ['delivery.courier_assigned', 1, 'delivery'],
      ['delivery.picked_up', 2, 'delivery'],
      ['delivery.delivered', 3, 'delivery'],
    ]);
    expect(events[0].body.data).toEqual(accepted.body);
    expect(events[2].body.data).toEqual(delivered.body);
    expect(JSON.stringify(events.map((e) => e.body))).not.toMatch(/pin_hash|scrypt|security_pin/);

    // The courier is free again and gets the next delivery.
    expect((await ctx.db('drivers').where({ id: courier.id }).first()).current_job_id).toBeNull();
    const next = await partner.post('/api/v1/deliveries', deliveryBody(door)).expect(201);
    const [nextOffer] = (await courierApp.get('/offers').expect(200)).body.data;
    expect(nextOffer.delivery_id).toBe(next.body.id);
  });

  it('stores only a salted hash of a PIN the partner chose', async () => {
    const centre = randomCentre();
    const { token } = await createPartnerKey(ctx);
    const created = await request(gateway.url)
      .post('/api/v1/deliveries')
      .set('Authorization', `Bearer ${token}`)
      .send(deliveryBody(centre, { security_pin: '00417' }))
      .expect(201);
    expect(created.body).not.toHaveProperty('security_pin');
    const row = await ctx.db('deliveries').where({ id: created.body.id }).first();
    expect(row.pin_hash).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row.pin_hash).not.toContain('00417');
    const twin = await request(gateway.url).post('/api/v1/deliveries').set('Authorization', `Bearer ${token}`).send(deliveryBody(centre, { security_pin: '00417' })).expect(201);
    expect((await ctx.db('deliveries').where({ id: twin.body.id }).first()).pin_hash).not.toBe(row.pin_hash); // per-delivery salt
  });
});
