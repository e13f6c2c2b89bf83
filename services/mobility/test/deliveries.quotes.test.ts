import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { offset, randomCentre, type Point } from './factories/fleet';
import { partnerApi } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

function quoteBody(pickup: Point, weight_tier = 'small') {
  const body = deliveryBody(pickup, { weight_tier });
  return { pickup: { lat: body.pickup.lat, lng: body.pickup.lng }, dropoff: { lat: body.dropoff.lat, lng: body.dropoff.lng }, weight_tier };
}

describe('POST /api/v1/deliveries/quotes', () => {
  it('quotes the fee, the pickup ETA of the nearest courier and the drop-off ETA, valid 15 minutes', async () => {
    const centre = randomCentre();
    await onlineCourier(ctx, offset(centre, 600, 0));
    const before = Date.now();
    const res = await partner.post('/api/v1/deliveries/quotes', quoteBody(centre)).expect(201);
    expect(res.body.quote_id).toMatch(/^dq_[0-9a-z]{20}$/);
    expect(res.body).toMatchObject({ weight_tier: 'small', fee: { currency: 'NGN' } });
    expect(res.body.pickup_eta_seconds).toBeGreaterThan(0);
    expect(res.body.dropoff_eta_seconds).toBeGreaterThan(res.body.pickup_eta_seconds);
    const expiresIn = Date.parse(res.body.expires_at) - before;
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);

    // Without a quote the delivery is priced the same way today.
    const unquoted = await partner.post('/api/v1/deliveries', deliveryBody(centre)).expect(201);
    expect(unquoted.body.fee).toEqual(res.body.fee);
  });

  it('answers null ETAs when no courier of the tier is near, and 422 for a bad body', async () => {
    const res = await partner.post('/api/v1/deliveries/quotes', quoteBody(randomCentre(), 'xlarge')).expect(201);
    expect(res.body).toMatchObject({ pickup_eta_seconds: null, dropoff_eta_seconds: null });
    const bad = await partner.post('/api/v1/deliveries/quotes', { ...quoteBody(randomCentre()), weight_tier: 'huge' }).expect(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(await ctx.db('delivery_quotes').where({ weight_tier: 'huge' })).toEqual([]);
  });

  it('needs deliveries:write', async () => {
    const reader = partnerApi(ctx, (await createPartnerKey(ctx, { scopes: ['deliveries:read'] })).token);
    const res = await reader.post('/api/v1/deliveries/quotes', quoteBody(randomCentre())).expect(403);
    expect(res.body.code).toBe('insufficient_scope');
  });
});

describe('POST /api/v1/deliveries with quote_id', () => {
  it('books at the quoted fee even when the price would differ now', async () => {
    const centre = randomCentre();
    const quote = (await partner.post('/api/v1/deliveries/quotes', quoteBody(centre)).expect(201)).body;
    // The quote's stored fee is what the booking pays (as if prices rose after quoting).
    await ctx.db('delivery_quotes').where({ id: quote.quote_id }).update({ fee_amount: 123_456 });
    const booked = await partner.post('/api/v1/deliveries', deliveryBody(centre, { quote_id: quote.quote_id })).expect(201);
    expect(booked.body.fee).toEqual({ amount: 123_456, currency: 'NGN' });
    expect(await ctx.db('deliveries').where({ id: booked.body.id }).first()).toMatchObject({ fee_amount: 123_456 });
  });

  it.each([
    ['delivery_quote_mismatch', 'another weight tier', (p: Point) => deliveryBody(p, { weight_tier: 'medium' })],
    ['delivery_quote_mismatch', 'another drop-off', (p: Point) => deliveryBody(p, { dropoff: offset(p, 100, 100) })],
    ['delivery_quote_mismatch', 'another pickup', (p: Point) => deliveryBody(offset(p, 50, 0), { dropoff: { ...offset(p, 2000, 1500), address: 'x' } })],
  ])('answers 422 %s for %s and creates nothing', async (code, _what, booking) => {
    const centre = randomCentre();
    const quote = (await partner.post('/api/v1/deliveries/quotes', quoteBody(centre)).expect(201)).body;
    // The partner's deliveries (other test files create theirs concurrently in the same database).
    const partnerId = (await ctx.db('delivery_quotes').where({ id: quote.quote_id }).first()).partner_id as string;
    const before = await ctx.db('deliveries').where({ partner_id: partnerId }).count({ n: '*' }).first();
    const res = await partner.post('/api/v1/deliveries', { ...booking(centre), quote_id: quote.quote_id }).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe(code);
    expect(await ctx.db('deliveries').where({ partner_id: partnerId }).count({ n: '*' }).first()).toEqual(before);
  });

  it('answers 422 delivery_quote_expired after 15 minutes', async () => {
    const centre = randomCentre();
    const quote = (await partner.post('/api/v1/deliveries/quotes', quoteBody(centre)).expect(201)).body;
    await ctx.db('delivery_quotes').where({ id: quote.quote_id }).update({ expires_at: new Date(Date.now() - 1000) });
    const res = await partner.post('/api/v1/deliveries', deliveryBody(centre, { quote_id: quote.quote_id })).expect(422);
    expect(res.body.code).toBe('delivery_quote_expired');
  });

  it('answers 422 delivery_quote_not_found for another partner’s quote or an unknown id', async () => {
    const centre = randomCentre();
    const other = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const theirs = (await other.post('/api/v1/deliveries/quotes', quoteBody(centre)).expect(201)).body;
    for (const quoteId of [theirs.quote_id, 'dq_00000000000000000000', 'nonsense']) {
      const res = await partner.post('/api/v1/deliveries', deliveryBody(centre, { quote_id: quoteId })).expect(422);
      expect(res.body.code).toBe('delivery_quote_not_found');
    }
    // The owner can still book it.
    await other.post('/api/v1/deliveries', deliveryBody(centre, { quote_id: theirs.quote_id })).expect(201);
  });
});

describe('POST /api/v1/estimates', () => {
  it('gives each tier its own duration_seconds and keeps the top-level (economy) one', async () => {
    const centre = randomCentre();
    const res = await partner.post('/api/v1/estimates', { pickup: centre, dropoff: offset(centre, 3000, 2000) }).expect(200);
    const byTier = Object.fromEntries(res.body.estimates.map((e: { tier: string; duration_seconds: number }) => [e.tier, e.duration_seconds]));
    expect(res.body.duration_seconds).toBe(byTier.economy);
    // moto is faster than economy, XL slower (pricing.ts speeds 30, 25, 22 km/h).
    expect(byTier.moto).toBeLessThan(byTier.economy);
    expect(byTier.xl).toBeGreaterThan(byTier.economy);
    expect(byTier.comfort).toBe(byTier.economy);
  });
});
