import request from 'supertest';
import { newOrg } from './factories/admin';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext();
});
afterAll(() => p.close());

describe('checkout', () => {
  it('lists the plans and creates a pending payment of the calling user', async () => {
    const { app } = p.ctx;
    const org = newOrg(p.ctx);
    const plans = await request(app).get('/admin/v1/plans').set('Authorization', org.admin()).expect(200);
    expect(plans.body.data.map((plan: { id: string }) => plan.id)).toEqual(['free', 'starter', 'pro', 'business']);
    const res = await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'pro', gateway: 'gateway-b' }).expect(201);
    expect(res.body).toMatchObject({ reference: expect.stringMatching(/^pay_/), plan: 'pro', amount: { amount: 2000000, currency: 'NGN' }, gateway: 'gateway-b', status: 'pending' });
    // Opened at Gateway B (amounts in major units): its hosted page is the answer, returning to the dashboard's billing page.
    expect(res.body.checkout_url).toBe(`${p.gateways.url}/pay/${res.body.reference}`);
    expect(p.gateways.initializations.at(-1)).toEqual({
      gateway: 'gateway-b',
      body: { tx_ref: res.body.reference, amount: 20000, currency: 'NGN', redirect_url: `http://127.0.0.1:8080/dashboard/billing?reference=${res.body.reference}`, customer: { email: `billing+${org.org}@partner-platform.invalid` } },
    });
    expect(await p.ctx.db('payments').where({ reference: res.body.reference }).first()).toMatchObject({ organization_id: org.org, user_id: org.owner, status: 'pending' });
    await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'platinum', gateway: 'gateway-a' }).expect(404);
    await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'free', gateway: 'gateway-a' }).expect(422);
    await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'pro', gateway: 'paypal' }).expect(422);
  });

  it('opens Gateway A (amounts in minor units) and shows both gateways by their display names', async () => {
    const named = await startPaymentsContext({ GATEWAY_A_DISPLAY_NAME: 'Paystack', GATEWAY_B_DISPLAY_NAME: 'Flutterwave' });
    try {
      const org = newOrg(named.ctx);
      const gateways = await request(named.ctx.app).get('/admin/v1/payment-gateways').set('Authorization', org.admin('member')).expect(200);
      expect(gateways.body).toEqual({ data: [{ id: 'gateway-a', name: 'Paystack', available: true }, { id: 'gateway-b', name: 'Flutterwave', available: true }] });
      const res = await request(named.ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'starter', gateway: 'gateway-a' }).expect(201);
      expect(res.body).toMatchObject({ gateway_name: 'Paystack', checkout_url: `${named.gateways.url}/pay/${res.body.reference}` });
      expect(named.gateways.initializations.at(-1)!.body).toMatchObject({ reference: res.body.reference, amount: 500000, currency: 'NGN', callback_url: `http://127.0.0.1:8080/dashboard/billing?reference=${res.body.reference}` });
      // Started from one of DASHBOARD_ORIGINS: back to that dashboard; from any other origin: PUBLIC_BASE_URL's.
      const local = await request(named.ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).set('Origin', 'http://localhost:8080').send({ plan: 'starter', gateway: 'gateway-a' }).expect(201);
      expect(named.gateways.initializations.at(-1)!.body.callback_url).toBe(`http://localhost:8080/dashboard/billing?reference=${local.body.reference}`);
      const elsewhere = await request(named.ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).set('Origin', 'https://evil.example').send({ plan: 'starter', gateway: 'gateway-a' }).expect(201);
      expect(named.gateways.initializations.at(-1)!.body.callback_url).toBe(`http://127.0.0.1:8080/dashboard/billing?reference=${elsewhere.body.reference}`);
    } finally {
      await named.close();
    }
  });

  it('answers 502 when the gateway cannot open a page and 503 when it is not set up; nothing is charged', async () => {
    const org = newOrg(p.ctx);
    p.gateways.state.initialize = 'down';
    try {
      const down = await request(p.ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'starter', gateway: 'gateway-a' }).expect(502);
      expect(down.body).toMatchObject({ code: 'payment_gateway_unavailable', detail: expect.stringContaining('Gateway A') });
      p.gateways.state.initialize = 'no_url';
      expect((await request(p.ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'starter', gateway: 'gateway-b' }).expect(502)).body.code).toBe('payment_gateway_unavailable');
    } finally {
      p.gateways.state.initialize = 'normal';
    }
    const bare = await startPaymentsContext({ GATEWAY_B_SECRET_KEY: '' });
    try {
      const refused = await request(bare.ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', newOrg(bare.ctx).admin()).send({ plan: 'pro', gateway: 'gateway-b' }).expect(503);
      expect(refused.body.code).toBe('payment_gateway_not_configured');
      expect((await request(bare.ctx.app).get('/admin/v1/payment-gateways').set('Authorization', newOrg(bare.ctx).admin()).expect(200)).body.data[1]).toEqual({ id: 'gateway-b', name: 'Gateway B', available: false });
    } finally {
      await bare.close();
    }
  });
});
