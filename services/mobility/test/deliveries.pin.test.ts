import { beforeAllWithPartner, type PartnerApi, type TestContext } from './helpers/context';
import { deliveryBody, onlineCourier, pickedUpDelivery } from './factories/deliveries';
import { offset, randomCentre } from './factories/fleet';

let ctx: TestContext;
let partner: PartnerApi;
beforeAllWithPartner((context, api) => {
  ctx = context;
  partner = api;
});

async function stateOf(id: string) {
  const row = await ctx.db('deliveries').where({ id }).first();
  const events = await ctx.db('outbox_events').where({ object_id: id });
  return { status: row.status, sequence: row.sequence, attempts: row.pin_failed_attempts, courier: row.courier_id, events: events.length, updated_at: row.updated_at };
}

describe('the security PIN', () => {
  it('refuses a wrong PIN with 403 invalid_pin and changes nothing but the attempt counter', async () => {
    const centre = randomCentre();
    const courier = await onlineCourier(ctx, offset(centre, 100, 0));
    const { id } = await pickedUpDelivery(partner, courier, centre, { security_pin: '4821' });
    const before = await stateOf(id);
    const readBefore = await partner.get(`/api/v1/deliveries/${id}`).expect(200);

    const wrong = await courier.app.post(`/deliveries/${id}/deliver`, { pin: '4822', received_by: 'Someone' }).expect(403);
    expect(wrong.body).toMatchObject({ error: 'Wrong PIN; 4 tries left', code: 'invalid_pin', remaining_attempts: 4 });

    expect(await stateOf(id)).toEqual({ ...before, attempts: 1 });
    expect((await partner.get(`/api/v1/deliveries/${id}`).expect(200)).body).toEqual(readBefore.body);

    const right = await courier.app.post(`/deliveries/${id}/deliver`, { pin: '4821' }).expect(200);
    expect(right.body).toMatchObject({ status: 'delivered', proof_of_delivery: { pin_verified: true, received_by: null, photo_url: null } });
  });

  it('locks after five wrong tries: the sixth is refused even with the right PIN, and the delivery can only fail', async () => {
    const centre = randomCentre();
    const courier = await onlineCourier(ctx, offset(centre, 100, 0));
    const { id } = await pickedUpDelivery(partner, courier, centre, { security_pin: '13579' });

    const remaining: number[] = [];
    for (const pin of ['00000', '11111', '22222', '33333', '44444']) {
      const res = await courier.app.post(`/deliveries/${id}/deliver`, { pin }).expect(403);
      expect(res.body.code).toBe('invalid_pin');
      remaining.push(res.body.remaining_attempts);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const sixth = await courier.app.post(`/deliveries/${id}/deliver`, { pin: '13579' }).expect(403);
    expect(sixth.body).toMatchObject({ code: 'pin_locked', remaining_attempts: 0 });
    expect(await stateOf(id)).toMatchObject({ status: 'picked_up', attempts: 5 });

    await partner.post(`/api/v1/deliveries/${id}/cancel`).expect(409);
    const failed = await courier.app.post(`/deliveries/${id}/fail`, { reason: 'PIN locked: recipient could not confirm' }).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'PIN locked: recipient could not confirm', proof_of_delivery: null });
    await courier.app.post(`/deliveries/${id}/deliver`, { pin: '13579' }).expect(409);
    const events = await ctx.db('outbox_events').where({ object_id: id }).orderBy('sequence');
    expect(events.map((e) => e.type)).toEqual(['delivery.courier_assigned', 'delivery.picked_up', 'delivery.failed']);
  });

  it('counts concurrent wrong tries atomically: never more than five, and exactly five refusals say invalid_pin', async () => {
    const centre = randomCentre();
    const courier = await onlineCourier(ctx, offset(centre, 100, 0));
    const { id } = await pickedUpDelivery(partner, courier, centre, { security_pin: '8642' });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => courier.app.post(`/deliveries/${id}/deliver`, { pin: String(1000 + i) })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(403));
    const codes = answers.map((a) => a.body.code as string);
    expect(codes.filter((c) => c === 'invalid_pin')).toHaveLength(5);
    expect(codes.filter((c) => c === 'pin_locked')).toHaveLength(7);
    expect(answers.filter((a) => a.body.code === 'invalid_pin').map((a) => a.body.remaining_attempts).sort()).toEqual([0, 1, 2, 3, 4]);
    expect((await stateOf(id)).attempts).toBe(5);
    await courier.app.post(`/deliveries/${id}/deliver`, { pin: '8642' }).expect(403);
  });

  it('does not look at the PIN before pick-up: 409, and the counter stays at zero', async () => {
    const centre = randomCentre();
    const courier = await onlineCourier(ctx, offset(centre, 100, 0));
    const created = await partner.post('/api/v1/deliveries', deliveryBody(centre, { security_pin: '2468' })).expect(201);
    const [offer] = await courier.app.offers();
    await courier.app.post(`/offers/${offer!.id}/accept`).expect(200);
    const early = await courier.app.post(`/deliveries/${created.body.id}/deliver`, { pin: '0000' }).expect(409);
    expect(early.body).toMatchObject({ error: 'Cannot deliver a delivery that is courier_assigned', code: 'invalid_delivery_status' });
    expect((await stateOf(created.body.id)).attempts).toBe(0);
  });

  it('keeps the PIN out of stored idempotent answers, and a changed PIN under the same key is a 409', async () => {
    const centre = randomCentre();
    const key = `pin-${centre.lat}-${centre.lng}`;
    const body = deliveryBody(centre, { security_pin: '97531' });
    const first = await partner.post('/api/v1/deliveries', body).set('Idempotency-Key', key).expect(201);
    const stored = await ctx.db('idempotency_keys').where({ key }).first();
    expect(JSON.stringify(stored)).not.toContain('97531');
    await partner.post('/api/v1/deliveries', body).set('Idempotency-Key', key).expect(201);
    const changed = await partner.post('/api/v1/deliveries', { ...body, security_pin: '97532' }).set('Idempotency-Key', key).expect(409);
    expect(changed.body.code).toBe('idempotency_key_reused');
    expect(await ctx.db('deliveries').where({ id: first.body.id })).toHaveLength(1);

    const generatedKey = `${key}-generated`;
    const generated = await partner.post('/api/v1/deliveries', deliveryBody(centre)).set('Idempotency-Key', generatedKey).expect(201);
    const storedGenerated = await ctx.db('idempotency_keys').where({ key: generatedKey }).first();
    expect(storedGenerated.response_body).not.toHaveProperty('security_pin');
    expect(JSON.stringify(storedGenerated.response_body)).not.toContain(`"${generated.body.security_pin}"`);
  });
});
