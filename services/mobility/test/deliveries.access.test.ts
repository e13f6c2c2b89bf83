import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody, onlineCourier, pickedUpDelivery } from './factories/deliveries';
import { offset, randomCentre } from './factories/fleet';
import { partnerApi } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

const centre = randomCentre();

describe('who may see and change a delivery', () => {
  it("answers 404 for another partner's delivery, on read and on cancel", async () => {
    const created = await partner.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201);
    const other = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const read = await other.get(`/api/v1/deliveries/${created.body.id}`).expect(404);
    expect(read.body).toMatchObject({ error: 'Delivery not found', code: 'not_found' });
    await other.post(`/api/v1/deliveries/${created.body.id}/cancel`).expect(404);
    expect((await ctx.db('deliveries').where({ id: created.body.id }).first()).status).toBe('pending');
  });

  it('answers 404 for ids of the wrong shape', async () => {
    await partner.get('/api/v1/deliveries/dlv_nope').expect(404);
    await partner.get('/api/v1/deliveries/ride_aaaaaaaaaaaaaaaaaaaa').expect(404);
  });

  it('lets a deliveries:read key read but not create or cancel (403 insufficient_scope)', async () => {
    const owner = (await createPartnerKey(ctx)).owner;
    const reader = partnerApi(ctx, (await createPartnerKey(ctx, { owner, scopes: ['deliveries:read'] })).token);
    const writer = partnerApi(ctx, (await createPartnerKey(ctx, { owner, scopes: ['deliveries:write'] })).token);
    const refused = await reader.post('/api/v1/deliveries', deliveryBody(centre)).expect(403);
    expect(refused.body).toMatchObject({ error: 'Missing required scope: deliveries:write', code: 'insufficient_scope' });
    const created = await writer.post('/api/v1/deliveries', deliveryBody(centre)).expect(201);
    await reader.get(`/api/v1/deliveries/${created.body.id}`).expect(200);
    await reader.post(`/api/v1/deliveries/${created.body.id}/cancel`).expect(403);
    const unread = await writer.get(`/api/v1/deliveries/${created.body.id}`).expect(403);
    expect(unread.body.error).toBe('Missing required scope: deliveries:read');
    const rides = partnerApi(ctx, (await createPartnerKey(ctx, { owner, scopes: ['rides:write', 'rides:read'] })).token);
    await rides.post('/api/v1/deliveries', deliveryBody(centre)).expect(403);
  });

  it("answers 404 to a courier acting on another courier's delivery", async () => {
    const spot = randomCentre();
    const mine = await onlineCourier(ctx, offset(spot, 100, 0));
    const stranger = await onlineCourier(ctx, offset(spot, 5000, 5000));
    const { id, pin } = await pickedUpDelivery(partner, mine, spot);
    await stranger.app.post(`/deliveries/${id}/pickup`).expect(404);
    await stranger.app.post(`/deliveries/${id}/deliver`, { pin }).expect(404);
    await stranger.app.post(`/deliveries/${id}/fail`, { reason: 'not mine' }).expect(404);
    expect((await ctx.db('deliveries').where({ id }).first()).status).toBe('picked_up');
  });
});

describe('delivery input', () => {
  it.each([
    ['a PIN of letters', deliveryBody(centre, { security_pin: 'abcd' }), 'security_pin'],
    ['a 3-digit PIN', deliveryBody(centre, { security_pin: '123' }), 'security_pin'],
    ['a 9-digit PIN', deliveryBody(centre, { security_pin: '123456789' }), 'security_pin'],
    ['a PIN as a number', deliveryBody(centre, { security_pin: 1234 }), 'security_pin'],
    ['an unknown weight tier', deliveryBody(centre, { weight_tier: 'huge' }), 'weight_tier'],
    ['no recipient phone', deliveryBody(centre, { recipient: { name: 'Chidi' } }), 'recipient.phone'],
    ['no sender', { ...deliveryBody(centre), sender: undefined }, 'sender'],
    ['latitude out of range', deliveryBody({ lat: 91, lng: 3 }), 'pickup.lat'],
    ['a trip over 200 km', deliveryBody(centre, { dropoff: offset(centre, 160_000, 0) }), 'dropoff'],
  ])('refuses a delivery with %s: 422 with details', async (_name, body, path) => {
    const res = await partner.post('/api/v1/deliveries', body).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.any(String) })]));
  });

  it('prices by distance and weight tier', async () => {
    const fees: Record<string, number> = {};
    for (const tier of ['small', 'medium', 'large', 'xlarge']) {
      fees[tier] = (await partner.post('/api/v1/deliveries', deliveryBody(centre, { weight_tier: tier, dropoff: offset(centre, 8000, 0) })).expect(201)).body.fee.amount;
    }
    expect(fees.small!).toBeLessThan(fees.medium!);
    expect(fees.medium!).toBeLessThan(fees.large!);
    expect(fees.large!).toBeLessThan(fees.xlarge!);
    const farther = await partner.post('/api/v1/deliveries', deliveryBody(centre, { dropoff: offset(centre, 20_000, 0) })).expect(201);
    expect(farther.body.fee.amount).toBeGreaterThan(fees.small!);
  });

  it.each([
    ['an http photo URL', { photo_url: 'http://photos.example.com/1.jpg' }, 'photo_url'],
    ['a photo URL that is not a URL', { photo_url: 'not a url' }, 'photo_url'],
    ['a javascript: URL', { photo_url: 'javascript:alert(1)' }, 'photo_url'],
    ['an over-long photo URL', { photo_url: `https://example.com/${'a'.repeat(2100)}` }, 'photo_url'],
    ['a PIN of letters', { pin: 'abcd' }, 'pin'],
    ['no PIN', { pin: undefined }, 'pin'],
  ])('refuses a deliver move with %s: 422, nothing counted', async (_name, overrides, path) => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id, pin } = await pickedUpDelivery(partner, courier, spot);
    const res = await courier.app.post(`/deliveries/${id}/deliver`, { pin, ...overrides }).expect(422);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(await ctx.db('deliveries').where({ id }).first()).toMatchObject({ status: 'picked_up', pin_failed_attempts: 0 });
  });

  it('refuses a fail move without a reason', async () => {
    const spot = randomCentre();
    const courier = await onlineCourier(ctx, offset(spot, 100, 0));
    const { id } = await pickedUpDelivery(partner, courier, spot);
    const res = await courier.app.post(`/deliveries/${id}/fail`, {}).expect(422);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'reason' })]);
  });
});
