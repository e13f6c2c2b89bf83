import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, newOrg, type TestOrg } from './factories/admin';
import { GATEWAY_B_HASH, GATEWAY_B_SECRET, gatewayAWebhook, gatewayBWebhook, paymentGatewayEnv, signA, startFakeGateways } from './factories/payment-gateways';

let ctx: TestContext;
let gateways: Awaited<ReturnType<typeof startFakeGateways>>;

beforeAll(async () => {
  gateways = await startFakeGateways();
  // Short so the hanging-verify-API case stays quick, yet long enough for 50 concurrent verify calls on a busy CI machine.
  ctx = createTestContext(paymentGatewayEnv(gateways.url, 3000));
});
afterAll(async () => {
  await ctx.close();
  await gateways.close();
});
afterEach(() => {
  gateways.state.mode = 'normal';
});

async function checkout(org: TestOrg, plan = 'starter', gateway = 'gateway-a') {
  const res = await request(ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan, gateway }).expect(201);
  return res.body as { reference: string; amount: { amount: number; currency: string } };
}

const sendA = (body: string | Buffer, signature?: string) => {
  const req = request(ctx.app).post('/webhooks/payments/gateway-a').set('Content-Type', 'application/json');
  if (signature !== undefined) req.set('X-Gateway-Signature', signature);
  return req.send(body);
};
const sendB = (body: string, hash: string | null = GATEWAY_B_HASH) => {
  const req = request(ctx.app).post('/webhooks/payments/gateway-b').set('Content-Type', 'application/json');
  if (hash !== null) req.set('X-Webhook-Hash', hash);
  return req.send(body);
};

async function stateOf(org: TestOrg, reference: string) {
  const organization = await ctx.db('organizations').where({ id: org.org }).first();
  const user = await ctx.db('users').where({ id: org.owner }).first();
  const payment = await ctx.db('payments').where({ reference }).first();
  const ledger = await ctx.db('credit_ledger').where({ organization_id: org.org, reason: 'plan_upgrade' });
  return { balance: organization.balance, plan: user.plan, payment, upgrades: ledger.length };
}

describe('checkout', () => {
  it('lists the plans and creates a pending payment of the calling user', async () => {
    const org = newOrg(ctx);
    const plans = await request(ctx.app).get('/admin/v1/plans').set('Authorization', org.admin()).expect(200);
    expect(plans.body.data.map((p: { id: string }) => p.id)).toEqual(['free', 'starter', 'pro', 'business']);
    const res = await request(ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'pro', gateway: 'gateway-b' }).expect(201);
    expect(res.body).toMatchObject({ reference: expect.stringMatching(/^pay_/), plan: 'pro', amount: { amount: 2000000, currency: 'NGN' }, gateway: 'gateway-b', status: 'pending' });
    await request(ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'platinum', gateway: 'gateway-a' }).expect(404);
    await request(ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'free', gateway: 'gateway-a' }).expect(422);
    await request(ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'pro', gateway: 'paypal' }).expect(422);
  });
});

describe('gateway A webhook', () => {
  it('activates a verified payment: plan set, credits added once, receipt stored', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const { reference } = await checkout(org);
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    await sendA(body, signA(body)).expect(200, { received: true });
    expect(await stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1, payment: { status: 'succeeded' } });
    const credits = await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200);
    expect(credits.body).toEqual({ organization: org.orgName, balance: 110, plan: 'starter' });
    const receipts = await ctx.db('payment_webhooks').where({ reference });
    expect(receipts).toEqual([expect.objectContaining({ gateway: 'gateway-a', event: 'charge.success', outcome: 'activated' })]);
    expect(receipts[0].body.toString('utf8')).toBe(body);
  });

  it.each([
    ['missing', undefined],
    ['forged', 'a'.repeat(128)],
    ['signed with another key', require('node:crypto').createHmac('sha512', 'other').update('x').digest('hex')],
  ])('refuses a %s signature with 401 and changes nothing', async (_label, signature) => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org);
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const calls = gateways.verifyCalls();
    const res = await sendA(gatewayAWebhook(reference), signature as string | undefined).expect(401);
    expect(res.body).toEqual({ error: 'Invalid webhook signature', code: 'invalid_signature' });
    expect(await stateOf(org, reference)).toMatchObject({ balance: 10, plan: 'free', upgrades: 0, payment: { status: 'pending' } });
    expect(gateways.verifyCalls()).toBe(calls);
    expect((await ctx.db('payment_webhooks').orderBy('id', 'desc').first()).outcome).toBe('rejected_signature');
  });

  it('checks the signature on the exact bytes: re-serialised JSON does not verify', async () => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org);
    const body = gatewayAWebhook(reference);
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    await sendA(pretty, signA(body)).expect(401);
  });

  it('credits exactly once when 50 copies of one successful webhook arrive at once', async () => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org);
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    const results = await Promise.all(Array.from({ length: 50 }, () => sendA(body, signA(body))));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await stateOf(org, reference)).toMatchObject({ balance: 110, upgrades: 1 });
    expect(await ctx.db('payment_webhooks').where({ reference })).toHaveLength(50);
  });

  it.each([
    ['says the charge failed', { amountMinor: 500000, currency: 'NGN', status: 'failed' }, 'transaction status is failed'],
    ['reports a lower amount', { amountMinor: 499999, currency: 'NGN', status: 'success' }, 'amount 499999 is below the price 500000'],
    ['reports another currency', { amountMinor: 500000, currency: 'USD', status: 'success' }, 'currency USD differs from NGN'],
  ])('does not activate when the verify API %s: payment failed with the reason', async (_label, charge, reason) => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org);
    gateways.charge({ reference, ...charge });
    const body = gatewayAWebhook(reference);
    await sendA(body, signA(body)).expect(200, { received: true });
    const state = await stateOf(org, reference);
    expect(state).toMatchObject({ balance: 10, plan: 'free', upgrades: 0 });
    expect(state.payment).toMatchObject({ status: 'failed', failure_reason: reason });
  });

  it.each(['down', 'hang'] as const)('answers 503 when the verify API is %s, activates nothing, and activates when the same webhook comes back', async (mode) => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org);
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    gateways.state.mode = mode;
    const res = await sendA(body, signA(body)).expect(503);
    expect(res.body.code).toBe('verification_unavailable');
    expect(await stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0, payment: { status: 'pending' } });
    gateways.state.mode = 'normal';
    await sendA(body, signA(body)).expect(200);
    expect(await stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1 });
    const outcomes = (await ctx.db('payment_webhooks').where({ reference }).orderBy('id')).map((r) => r.outcome);
    expect(outcomes).toEqual(['verification_unavailable', 'activated']);
  });

  it('answers malformed JSON with a valid signature with 400, never 500', async () => {
    const body = '{"event": "charge.success", "data": ';
    const res = await sendA(body, signA(body)).expect(400);
    expect(res.body).toEqual({ error: 'Request body is not valid JSON', code: 'invalid_json' });
    const wrongShape = JSON.stringify({ event: 'charge.success', data: { reference: 42 } });
    expect((await sendA(wrongShape, signA(wrongShape)).expect(400)).body.code).toBe('malformed_webhook');
  });

  it('acknowledges other events, unknown references and replays with 200 and changes nothing', async () => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org);
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const other = gatewayAWebhook(reference, 500000, 'transfer.success');
    await sendA(other, signA(other)).expect(200, { received: true });
    const unknown = gatewayAWebhook('pay_doesnotexist000000000');
    await sendA(unknown, signA(unknown)).expect(200, { received: true });
    expect(await stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0 });
    const body = gatewayAWebhook(reference);
    await sendA(body, signA(body)).expect(200);
    await sendA(body, signA(body)).expect(200);
    expect(await stateOf(org, reference)).toMatchObject({ balance: 110, upgrades: 1 });
  });
});

describe('gateway B webhook', () => {
  it('compares major-unit amounts with decimals against prices in minor units', async () => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org, 'starter', 'gateway-b');
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959875');
    await sendB(gatewayBWebhook(reference, 285959875, 5000)).expect(200, { received: true });
    expect(await stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1 });

    const short = newOrg(ctx);
    const second = await checkout(short, 'starter', 'gateway-b');
    gateways.charge({ reference: second.reference, amountMinor: 499999, currency: 'NGN', status: 'successful' }, '285959876'); // 4999.99
    await sendB(gatewayBWebhook(second.reference, 285959876, 4999.99)).expect(200);
    expect((await stateOf(short, second.reference)).payment).toMatchObject({ status: 'failed', failure_reason: 'amount 499999 is below the price 500000' });
  });

  it('refuses a wrong or missing secret hash with 401 when one is configured', async () => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org, 'starter', 'gateway-b');
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959877');
    const body = gatewayBWebhook(reference, 285959877, 5000);
    expect((await sendB(body, 'wrong').expect(401)).body.code).toBe('invalid_signature');
    await sendB(body, null).expect(401);
    expect(await stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0 });
  });

  it('uses the transaction id from the webhook and trusts only what the verify API says', async () => {
    const org = newOrg(ctx);
    const { reference } = await checkout(org, 'pro', 'gateway-b');
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959878'); // paid the starter price
    await sendB(gatewayBWebhook(reference, 285959878, 20000)).expect(200); // the webhook claims the pro price
    expect((await stateOf(org, reference)).payment).toMatchObject({ status: 'failed', failure_reason: 'amount 500000 is below the price 2000000' });
  });

  it('accepts calls without a hash when none is configured, leaving verification as the protection', async () => {
    const open = createTestContext({ GATEWAY_B_SECRET_KEY: GATEWAY_B_SECRET, GATEWAY_B_BASE_URL: gateways.url });
    try {
      const org = newOrg(open);
      const res = await request(open.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'starter', gateway: 'gateway-b' }).expect(201);
      const reference = res.body.reference;
      await request(open.app).post('/webhooks/payments/gateway-b').set('Content-Type', 'application/json').send(gatewayBWebhook(reference, 999, 5000)).expect(200);
      expect((await open.db('payments').where({ reference }).first()).status).toBe('failed'); // the verify API knows no transaction 999
    } finally {
      await open.close();
    }
  });
});
