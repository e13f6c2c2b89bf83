import request from 'supertest';
import { createApiKey, newOrg, type TestOrg } from './factories/admin';
import { gatewayAWebhook, gatewayBWebhook, signA } from './factories/payment-gateways';
import { binary, pdfText } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';

/**
 * A credit top-up: the owner buys a credit pack through either gateway's hosted checkout; the verified payment webhook
 * adds the pack's credits once, and never touches the plan or its period.
 */
let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext({ GATEWAY_B_DISPLAY_NAME: 'Flutterwave' });
});
afterAll(() => p.close());

/** The organization's balance, its owner's plan, the top-up's payment and the ledger rows it made. */
async function topUpState(org: TestOrg, reference: string) {
  const organization = await p.ctx.db('organizations').where({ id: org.org }).first('balance');
  const user = await p.ctx.db('users').where({ organization_id: org.org, id: org.owner }).first('plan');
  const payment = await p.ctx.db('payments').where({ reference }).first();
  const grants = await p.ctx.db('credit_ledger').where({ organization_id: org.org, reference }).select('delta', 'reason');
  return { balance: organization.balance, plan: user.plan, status: payment.status, grants };
}

/** Pays a top-up at gateway A (the fake gateway now knows the charge) and sends the signed webhook. */
async function payAtA(reference: string, amountMinor: number, status = 'success') {
  p.gateways.charge({ reference, amountMinor, currency: 'NGN', status });
  const body = gatewayAWebhook(reference, amountMinor);
  await p.sendA(body, signA(body)).expect(200, { received: true });
  return body;
}

describe('credit top-up checkout', () => {
  it('lists the packs in the plan catalogue currency and answers a top-up with the hosted payment page of either gateway', async () => {
    const org = newOrg(p.ctx);
    const packs = await request(p.ctx.app).get('/admin/v1/credit-packs').set('Authorization', org.admin('member')).expect(200);
    expectToMatchRouteTable(packs);
    expect(packs.body.data).toEqual([
      { id: 'credits_100', name: '100 credits', credits: 100, price: { amount: 600000, currency: 'NGN' } },
      { id: 'credits_500', name: '500 credits', credits: 500, price: { amount: 2500000, currency: 'NGN' } },
      { id: 'credits_2000', name: '2,000 credits', credits: 2000, price: { amount: 8000000, currency: 'NGN' } },
    ]);

    const a = await request(p.ctx.app).post('/admin/v1/credits/top-ups').set('Authorization', org.admin()).send({ pack: 'credits_100', gateway: 'gateway-a' }).expect(201);
    expectToMatchRouteTable(a);
    expect(a.body).toMatchObject({ kind: 'credit_top_up', plan: null, credit_pack: 'credits_100', credits: 100, amount: { amount: 600000, currency: 'NGN' }, status: 'pending', gateway_name: 'Gateway A' });
    expect(a.body.checkout_url).toBe(`${p.gateways.url}/pay/${a.body.reference}`);
    expect(p.gateways.initializations.at(-1)).toMatchObject({
      gateway: 'gateway-a',
      body: { reference: a.body.reference, amount: 600000, currency: 'NGN', callback_url: `http://127.0.0.1:8080/dashboard/billing?reference=${a.body.reference}` },
    });

    const b = await p.topUp(org, 'credits_2000', 'gateway-b');
    expect(b).toMatchObject({ credits: 2000, gateway_name: 'Flutterwave', checkout_url: `${p.gateways.url}/pay/${b.reference}` });
    expect(p.gateways.initializations.at(-1)).toMatchObject({ gateway: 'gateway-b', body: { tx_ref: b.reference, amount: 80000, currency: 'NGN' } });
    expect(await p.ctx.db('payments').where({ reference: b.reference }).first()).toMatchObject({ kind: 'credit_top_up', credit_pack: 'credits_2000', credits: 2000, plan: null, user_id: org.owner });
  });

  it('answers bad input with 4xx JSON and opens nothing', async () => {
    const org = newOrg(p.ctx);
    const opened = p.gateways.initializations.length;
    const post = (body: unknown, who = org.admin()) => request(p.ctx.app).post('/admin/v1/credits/top-ups').set('Authorization', who).send(body as object);
    const unknownPack = await post({ pack: 'credits_999', gateway: 'gateway-a' }).expect(422);
    expect(unknownPack.headers['content-type']).toMatch(/json/);
    expect(unknownPack.body).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path: 'pack' })] });
    expect((await post({ pack: 'credits_100', gateway: 'paypal' }).expect(422)).body.details).toEqual([expect.objectContaining({ path: 'gateway' })]);
    expect((await post({ pack: 'credits_100' }).expect(422)).body.code).toBe('validation_failed');
    expect((await post({ pack: 'credits_100', gateway: 'gateway-a', plan: 'pro' }).expect(422)).body.code).toBe('validation_failed');
    const text = await request(p.ctx.app).post('/admin/v1/credits/top-ups').set('Authorization', org.admin()).set('Content-Type', 'text/plain').send('credits_100').expect(415);
    expect(text.headers['content-type']).toMatch(/json/);
    // It spends the organization's money: owners only.
    const member = await post({ pack: 'credits_100', gateway: 'gateway-a' }, org.admin('member')).expect(403);
    expect(member.body.code).toBe('insufficient_role');
    await request(p.ctx.app).post('/admin/v1/credits/top-ups').send({ pack: 'credits_100', gateway: 'gateway-a' }).expect(401);
    expect(p.gateways.initializations).toHaveLength(opened);
    expect(await p.ctx.db('payments').where({ organization_id: org.org })).toEqual([]);
  });
});

describe('a verified top-up payment', () => {
  it('adds the pack credits once (ledger row, receipt) and leaves the plan and its renewal date as they were', async () => {
    const org = newOrg(p.ctx);
    const key = await createApiKey(p.ctx, org);
    // A paid plan first: its period and renewal date must survive the top-up.
    const upgrade = await p.checkout(org, 'starter', 'gateway-a');
    await payAtA(upgrade.reference, upgrade.amount.amount);
    const renewsBefore = (await request(p.ctx.app).get('/admin/v1/payments').set('Authorization', org.admin()).expect(200)).body.data[0].renews_at;

    const { reference, amount } = await p.topUp(org, 'credits_500', 'gateway-a');
    const body = await payAtA(reference, amount.amount);
    expect(await topUpState(org, reference)).toEqual({ balance: 10 + 100 + 500, plan: 'starter', status: 'succeeded', grants: [{ delta: 500, reason: 'credit_top_up' }] });
    expect((await request(p.ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200)).body).toEqual({ organization: org.orgName, balance: 610, plan: 'starter', livemode: true });
    expect(await p.receiptOf(body)).toMatchObject({ gateway: 'gateway-a', reference, outcome: 'activated' });

    // Replays, one after another and 20 at once: still one grant.
    await p.sendA(body, signA(body)).expect(200, { received: true });
    await Promise.all(Array.from({ length: 20 }, () => p.sendA(body, signA(body)).expect(200)));
    expect(await topUpState(org, reference)).toMatchObject({ balance: 610, grants: [{ delta: 500, reason: 'credit_top_up' }] });
    expect(await p.receiptOf(body)).toMatchObject({ outcome: 'already_activated' });

    // The ledger and billing history show it; the plan's renewal date is the one the upgrade set.
    const ledger = await request(p.ctx.app).get('/admin/v1/credits/ledger').set('Authorization', org.admin()).expect(200);
    expect(ledger.body.data[0]).toMatchObject({ amount: 500, reason: 'credit_top_up', reference, balance_after: 610 });
    const history = await request(p.ctx.app).get('/admin/v1/payments').set('Authorization', org.admin()).expect(200);
    expectToMatchRouteTable(history);
    expect(history.body.data.map((payment: { reference: string }) => payment.reference)).toEqual([reference, upgrade.reference]);
    expect(history.body.data[0]).toMatchObject({ kind: 'credit_top_up', credits: 500, status: 'succeeded', activated_at: expect.any(String), period: null, renews_at: null });
    expect(history.body.data[1]).toMatchObject({ kind: 'plan_upgrade', plan: 'starter', renews_at: renewsBefore });
    expect(await p.ctx.db('audit_log').where({ organization_id: org.org, action: 'credits.topped_up' })).toEqual([
      expect.objectContaining({ actor_id: org.owner, actor_role: 'payment', target_id: reference, details: expect.objectContaining({ credit_pack: 'credits_500', credits: 500 }) }),
    ]);

    const receipt = await request(p.ctx.app).get(`/admin/v1/payments/${reference}/receipt`).set('Authorization', org.admin('member')).buffer(true).parse(binary).expect(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(receipt.body as Buffer);
    expect(text).toContain('Credit top-up');
    expect(text).toContain('500 credits (plan unchanged)');
    expect(text).toContain('NGN 25000.00');
    expect(text).not.toContain('Period');
  });

  it('through gateway B: verified by transaction id, credits added once', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.topUp(org, 'credits_100', 'gateway-b');
    p.gateways.charge({ reference, amountMinor: 600000, currency: 'NGN', status: 'successful' }, '777000111');
    const body = gatewayBWebhook(reference, 777000111, 6000);
    await p.sendB(body).expect(200, { received: true });
    await p.sendB(body).expect(200, { received: true });
    expect(await topUpState(org, reference)).toEqual({ balance: 110, plan: 'free', status: 'succeeded', grants: [{ delta: 100, reason: 'credit_top_up' }] });
  });

  it('adds nothing for a failed, unknown or underpaid transaction, or an unsigned call', async () => {
    const org = newOrg(p.ctx);
    const failed = await p.topUp(org, 'credits_100');
    await payAtA(failed.reference, failed.amount.amount, 'failed');
    expect(await topUpState(org, failed.reference)).toMatchObject({ balance: 10, status: 'failed', grants: [] });
    expect((await p.ctx.db('payments').where({ reference: failed.reference }).first()).failure_reason).toBe('transaction status is failed');

    // The webhook says paid, the gateway's verify API has never heard of it.
    const unverified = await p.topUp(org, 'credits_100');
    const forged = gatewayAWebhook(unverified.reference, unverified.amount.amount);
    await p.sendA(forged, signA(forged)).expect(200, { received: true });
    expect(await topUpState(org, unverified.reference)).toMatchObject({ balance: 10, status: 'failed', grants: [] });

    const underpaid = await p.topUp(org, 'credits_2000');
    await payAtA(underpaid.reference, 600000);
    expect(await topUpState(org, underpaid.reference)).toMatchObject({ balance: 10, status: 'failed', grants: [] });

    const unsigned = await p.topUp(org, 'credits_500');
    p.gateways.charge({ reference: unsigned.reference, amountMinor: unsigned.amount.amount, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(unsigned.reference, unsigned.amount.amount);
    const refused = await p.sendA(body, 'ab'.repeat(64)).expect(401);
    expect(refused.body.code).toBe('invalid_signature');
    expect(await topUpState(org, unsigned.reference)).toMatchObject({ balance: 10, status: 'pending', grants: [] });
    expect(await p.ctx.db('users').where({ organization_id: org.org, id: org.owner }).first('plan')).toEqual({ plan: 'free' });
    // No receipt for an unpaid top-up.
    await request(p.ctx.app).get(`/admin/v1/payments/${failed.reference}/receipt`).set('Authorization', org.admin()).expect(404);
  });
});
