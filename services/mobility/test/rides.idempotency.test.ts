import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { createPartnerKey, suffix } from './factories/auth';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

describe('Idempotency-Key on POST /api/v1/rides', () => {
  it('returns the first answer for the same key and body, and creates one ride', async () => {
    const key = `order-${suffix()}`;
    const body = rideBody(randomCentre());
    const first = await partner.post('/api/v1/rides', body).set('Idempotency-Key', key).expect(201);
    const again = await partner.post('/api/v1/rides', body).set('Idempotency-Key', key).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await ctx.db('rides').where({ id: first.body.id })).toHaveLength(1);
  });

  it('creates one ride when the same request arrives several times at once', async () => {
    const key = `order-${suffix()}`;
    const body = rideBody(randomCentre());
    const answers = await Promise.all(Array.from({ length: 5 }, () => partner.post('/api/v1/rides', body).set('Idempotency-Key', key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it('refuses the same key with another body: 409', async () => {
    const key = `order-${suffix()}`;
    const centre = randomCentre();
    await partner.post('/api/v1/rides', rideBody(centre)).set('Idempotency-Key', key).expect(201);
    const res = await partner.post('/api/v1/rides', rideBody(centre, { tier: 'xl' })).set('Idempotency-Key', key).expect(409);
    expect(res.body.code).toBe('idempotency_key_reused');
  });

  it('keeps keys apart per partner and creates a new ride without a key', async () => {
    const key = `order-${suffix()}`;
    const body = rideBody(randomCentre());
    const other = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const mine = await partner.post('/api/v1/rides', body).set('Idempotency-Key', key).expect(201);
    const theirs = await other.post('/api/v1/rides', body).set('Idempotency-Key', key).expect(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const a = await partner.post('/api/v1/rides', body).expect(201);
    const b = await partner.post('/api/v1/rides', body).expect(201);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('forgets a key after 24 hours', async () => {
    const key = `order-${suffix()}`;
    const centre = randomCentre();
    const first = await partner.post('/api/v1/rides', rideBody(centre)).set('Idempotency-Key', key).expect(201);
    await ctx.db('idempotency_keys').where({ key }).update({ created_at: ctx.db.raw(`now() - interval '25 hours'`) });
    const later = await partner.post('/api/v1/rides', rideBody(centre, { tier: 'xl' })).set('Idempotency-Key', key).expect(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect(later.body.tier).toBe('xl');
  });
});
