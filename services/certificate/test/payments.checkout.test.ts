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
    expect(await p.ctx.db('payments').where({ reference: res.body.reference }).first()).toMatchObject({ organization_id: org.org, user_id: org.owner, status: 'pending' });
    await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'platinum', gateway: 'gateway-a' }).expect(404);
    await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'free', gateway: 'gateway-a' }).expect(422);
    await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'pro', gateway: 'paypal' }).expect(422);
  });
});
