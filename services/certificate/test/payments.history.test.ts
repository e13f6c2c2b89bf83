import request from 'supertest';
import { newOrg } from './factories/admin';
import { gatewayAWebhook, signA } from './factories/payment-gateways';
import { binary, pdfText } from './helpers/documents';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';
import { expectToMatchRouteTable } from './helpers/openapi';
import { oneMonthAfter } from '../src/features/payments/receipts';

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext({ GATEWAY_A_DISPLAY_NAME: 'Paystack' });
});
afterAll(() => p.close());

describe('billing history and receipts', () => {
  it('lists payments newest first with the paid plan period and renewal date, and a PDF receipt once paid', async () => {
    const org = newOrg(p.ctx);
    const open = await p.checkout(org, 'pro', 'gateway-b');
    const { reference, amount } = await p.checkout(org, 'starter', 'gateway-a');
    p.gateways.charge({ reference, amountMinor: amount.amount, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference, amount.amount);
    await p.sendA(body, signA(body)).expect(200);

    const res = await request(p.ctx.app).get('/admin/v1/payments').set('Authorization', org.admin('member')).expect(200);
    expectToMatchRouteTable(res);
    expect(res.body.data.map((payment: { reference: string }) => payment.reference)).toEqual([reference, open.reference]);
    const [paid, pending] = res.body.data;
    expect(paid).toMatchObject({ status: 'succeeded', plan: 'starter', gateway_name: 'Paystack', period: 'month', activated_at: expect.any(String) });
    expect(paid.renews_at).toBe(oneMonthAfter(new Date(paid.activated_at)).toISOString());
    expect(pending).toMatchObject({ status: 'pending', gateway_name: 'Gateway B', activated_at: null, period: null, renews_at: null });

    const receipt = await request(p.ctx.app).get(`/admin/v1/payments/${reference}/receipt`).set('Authorization', org.admin()).buffer(true).parse(binary).expect(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.headers['content-disposition']).toBe(`attachment; filename="receipt-${reference}.pdf"`);
    const text = await pdfText(receipt.body as Buffer);
    expect(text).toContain('Receipt');
    expect(text).toContain(reference);
    expect(text).toContain('Starter');
    expect(text).toContain('NGN 5000.00');
    expect(text).toContain('Paystack');
    expect(text).toContain(org.orgName);

    // Not paid, unknown, or another organization's: 404 JSON.
    const unpaid = await request(p.ctx.app).get(`/admin/v1/payments/${open.reference}/receipt`).set('Authorization', org.admin()).expect(404);
    expect(unpaid.headers['content-type']).toMatch(/json/);
    await request(p.ctx.app).get('/admin/v1/payments/pay_nothing/receipt').set('Authorization', org.admin()).expect(404);
    await request(p.ctx.app).get(`/admin/v1/payments/${reference}/receipt`).set('Authorization', newOrg(p.ctx).admin()).expect(404);
    expect((await request(p.ctx.app).get('/admin/v1/payments').set('Authorization', newOrg(p.ctx).admin()).expect(200)).body.data).toEqual([]);
  });

  it('renews one calendar month later, clamped to the end of a shorter month', () => {
    expect(oneMonthAfter(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(oneMonthAfter(new Date('2026-11-27T00:05:00Z')).toISOString()).toBe('2026-12-27T00:05:00.000Z');
    expect(oneMonthAfter(new Date('2026-12-15T08:00:00Z')).toISOString()).toBe('2027-01-15T08:00:00.000Z');
  });
});
