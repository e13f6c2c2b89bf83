import { newOrg } from './factories/admin';
import { gatewayAWebhook, gatewayBWebhook, signA } from './factories/payment-gateways';
import { ERROR_LEVEL, startPaymentsContext, type PaymentsContext } from './helpers/payments';

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext();
});
afterAll(() => p.close());
afterEach(() => {
  p.gateways.state.mode = 'normal';
  p.gateways.state.answer = undefined;
});

const KEY_REFUSED = 'payment gateway refused our secret key: check its configuration';

async function outcomesOf(reference: string) {
  return (await p.ctx.db('payment_webhooks').where({ reference }).orderBy('id')).map((r) => r.outcome);
}

describe('an explicit "no" from the verify API marks the payment failed', () => {
  it.each([
    ['says the charge failed', { amountMinor: 500000, currency: 'NGN', status: 'failed' }, 'transaction status is failed'],
    ['reports a lower amount', { amountMinor: 499999, currency: 'NGN', status: 'success' }, 'amount 499999 is below the price 500000'],
    ['reports another currency', { amountMinor: 500000, currency: 'USD', status: 'success' }, 'currency USD differs from NGN'],
  ])('gateway A: when the verify API %s, 200 and the payment is failed with the reason', async (_label, charge, reason) => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.charge({ reference, ...charge });
    const body = gatewayAWebhook(reference);
    await p.sendA(body, signA(body)).expect(200, { received: true });
    const state = await p.stateOf(org, reference);
    expect(state).toMatchObject({ balance: 10, plan: 'free', upgrades: 0 });
    expect(state.payment).toMatchObject({ status: 'failed', failure_reason: reason });
  });

  it('gateway A: a 404 from the verify API (transaction not found) fails the payment', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org); // the fake gateway has no charge for it: it answers 404
    const body = gatewayAWebhook(reference);
    await p.sendA(body, signA(body)).expect(200, { received: true });
    expect((await p.stateOf(org, reference)).payment).toMatchObject({ status: 'failed', failure_reason: 'transaction not found at the gateway' });
    expect(await outcomesOf(reference)).toEqual(['payment_failed']);
  });

  it('gateway B: compares major-unit amounts with decimals against prices in minor units', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org, 'starter', 'gateway-b');
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959875');
    await p.sendB(gatewayBWebhook(reference, 285959875, 5000)).expect(200, { received: true });
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1 });

    const short = newOrg(p.ctx);
    const second = await p.checkout(short, 'starter', 'gateway-b');
    p.gateways.charge({ reference: second.reference, amountMinor: 499999, currency: 'NGN', status: 'successful' }, '285959876'); // 4999.99
    await p.sendB(gatewayBWebhook(second.reference, 285959876, 4999.99)).expect(200);
    expect((await p.stateOf(short, second.reference)).payment).toMatchObject({ status: 'failed', failure_reason: 'amount 499999 is below the price 500000' });
  });

  it('gateway B: uses the transaction id from the webhook and trusts only what the verify API says', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org, 'pro', 'gateway-b');
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959878'); // paid the starter price
    await p.sendB(gatewayBWebhook(reference, 285959878, 20000)).expect(200); // the webhook claims the pro price
    expect((await p.stateOf(org, reference)).payment).toMatchObject({ status: 'failed', failure_reason: 'amount 500000 is below the price 2000000' });
  });
});

describe('no usable answer from the verify API: 503 so the gateway retries, the payment untouched', () => {
  it.each([
    ['is down (502)', { mode: 'down' as const }],
    ['hangs past the timeout', { mode: 'hang' as const }],
    ['answers 401', { answer: { status: 401, contentType: 'application/json', body: '{"status":false,"message":"Invalid key"}' } }],
    ['answers 403', { answer: { status: 403, contentType: 'application/json', body: '{"status":false}' } }],
    ['answers 408', { answer: { status: 408, contentType: 'application/json', body: '{}' } }],
    ['answers 429', { answer: { status: 429, contentType: 'application/json', body: '{"message":"slow down"}' } }],
    ['answers 500', { answer: { status: 500, contentType: 'application/json', body: '{}' } }],
    ['answers 200 with HTML', { answer: { status: 200, contentType: 'text/html', body: '<html>maintenance</html>' } }],
    ['answers 200 JSON of an unknown shape', { answer: { status: 200, contentType: 'application/json', body: '{"ok":1}' } }],
  ])('gateway A: the verify API %s; the same webhook activates once it answers', async (_label, failure) => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    Object.assign(p.gateways.state, failure);
    const res = await p.sendA(body, signA(body)).expect(503);
    expect(res.body).toMatchObject({ error: 'Could not verify the transaction with the payment gateway; retry later', code: 'verification_unavailable' });
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0, payment: { status: 'pending', failure_reason: null } });
    Object.assign(p.gateways.state, { mode: 'normal', answer: undefined });
    await p.sendA(body, signA(body)).expect(200);
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1 });
    expect(await outcomesOf(reference)).toEqual(['verification_unavailable', 'activated']);
  });

  it('gateway B: a 401 from the verify API is a 503 too, and the payment stays pending', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org, 'starter', 'gateway-b');
    p.gateways.state.answer = { status: 401, contentType: 'application/json', body: '{"status":"error","message":"Invalid authorization key"}' };
    await p.sendB(gatewayBWebhook(reference, 285959880, 5000)).expect(503);
    expect((await p.stateOf(org, reference)).payment).toMatchObject({ status: 'pending', failure_reason: null });
  });

  it.each([401, 403])('logs a %i (our secret key refused) at error, naming the gateway and reference', async (status) => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.state.answer = { status, contentType: 'application/json', body: '{"status":false}' };
    const body = gatewayAWebhook(reference);
    await p.sendA(body, signA(body)).expect(503);
    const lines = p.logs.filter((line) => line.reference === reference && line.msg === KEY_REFUSED);
    expect(lines).toEqual([expect.objectContaining({ level: ERROR_LEVEL, gateway: 'gateway-a', reason: `verify API refused our secret key (${status})` })]);
  });

  it('logs a 429 as one warning, nothing at error', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.state.answer = { status: 429, contentType: 'application/json', body: '{}' };
    const body = gatewayAWebhook(reference);
    const res = await p.sendA(body, signA(body)).expect(503);
    const lines = p.logs.filter((line) => line.request_id === res.headers['x-request-id'] && line.level >= 40);
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'payment verification unavailable: the gateway will retry', reason: 'verify API answered 429', reference })]);
  });
});
