import request from 'supertest';
import { newOrg, type TestOrg } from './factories/admin';
import { gatewayAWebhook, signA } from './factories/payment-gateways';
import { binary, pdfText } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';
import { allocateInvoiceNumber } from '../src/features/payments/invoice-numbers';
import { formatAmount, splitVat } from '../src/features/payments/invoice-amounts';
import { warnAboutPaymentSettings } from '../src/features/payments/payment-settings-warnings';
import { parseConfig } from '@platform/service-kit/config';
import { createLogger } from '@platform/service-kit/logger';
import { Writable } from 'node:stream';
import { certificateConfigSchema } from '../src/config';

const SELLER = { INVOICE_SELLER_NAME: 'Partner Platform Ltd', INVOICE_SELLER_ADDRESS: '3 Broad Street\\nLagos 100001\\nNigeria', INVOICE_SELLER_TAX_ID: 'TIN-09876543', INVOICE_VAT_RATE: '7.5' };
const BUYER = { legal_name: 'Acme Learning Ltd', address: '12 Marina Road\nLagos 101241', tax_id: 'TIN-12345678', email: 'accounts@acme.example' };

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext({ GATEWAY_A_DISPLAY_NAME: 'Paystack', ...SELLER });
});
afterAll(() => p.close());

/** A credit top-up of `org`, paid at the gateway and confirmed by its signed webhook. */
async function paidTopUp(org: TestOrg, pack = 'credits_500') {
  const { reference, amount } = await p.topUp(org, pack);
  p.gateways.charge({ reference, amountMinor: amount.amount, currency: 'NGN', status: 'success' });
  const body = gatewayAWebhook(reference, amount.amount);
  return { reference, amount, deliver: () => p.sendA(body, signA(body)) };
}

const invoicesOf = (org: TestOrg) => request(p.ctx.app).get('/admin/v1/invoices').set('Authorization', org.admin('member'));
const year = new Date().getUTCFullYear();

describe('invoice numbers', () => {
  it('numbers 20 payments confirmed at once 1 … n with no gap and no duplicate, one invoice each', async () => {
    const orgs = Array.from({ length: 4 }, () => newOrg(p.ctx));
    const payments = await Promise.all(Array.from({ length: 20 }, (_, at) => paidTopUp(orgs[at % 4]!, 'credits_100')));
    const answers = await Promise.all(payments.map((payment) => payment.deliver()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));

    const rows = await p.ctx.db('invoices').whereIn('payment_reference', payments.map((payment) => payment.reference)).select('number', 'sequence', 'payment_reference');
    expect(rows).toHaveLength(20);
    const sequences = rows.map((row: { sequence: number }) => row.sequence).sort((a: number, b: number) => a - b);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, at) => sequences[0]! + at));
    // The year's whole numbering (whatever other tests paid before) is 1 … last, and the counter says last.
    const all = await p.ctx.db('invoices').where({ year }).orderBy('sequence').pluck('sequence');
    expect(all).toEqual(Array.from({ length: all.length }, (_, at) => at + 1));
    expect((await p.ctx.db('invoice_counters').where({ year }).first()).last_number).toBe(all.length);
    for (const row of rows) expect(row.number).toBe(`INV-${year}-${String(row.sequence).padStart(6, '0')}`);
  }, 60_000);

  it('gives a rolled-back number back: the next invoice takes it', async () => {
    const before = (await p.ctx.db('invoice_counters').where({ year: 1999 }).first())?.last_number ?? 0;
    await expect(
      p.ctx.db.transaction(async (trx) => {
        expect((await allocateInvoiceNumber(trx, 1999)).sequence).toBe(before + 1);
        throw new Error('activation failed after its number was taken');
      }),
    ).rejects.toThrow('activation failed');
    const next = await p.ctx.db.transaction((trx) => allocateInvoiceNumber(trx, 1999));
    expect(next).toEqual({ year: 1999, sequence: before + 1, number: `INV-1999-${String(before + 1).padStart(6, '0')}` });
  });

  it('issues no second invoice for a webhook delivered again', async () => {
    const org = newOrg(p.ctx);
    const payment = await paidTopUp(org);
    await payment.deliver().expect(200);
    await payment.deliver().expect(200);
    expect(await p.ctx.db('invoices').where({ payment_reference: payment.reference })).toHaveLength(1);
  });
});

describe('the invoice', () => {
  it('names seller and buyer, the line item, the VAT split out of the price paid, with thousands separators', async () => {
    const org = newOrg(p.ctx);
    await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin()).send(BUYER).expect(200);
    const { reference, deliver } = await paidTopUp(org, 'credits_500');
    await deliver().expect(200);

    const list = await invoicesOf(org).expect(200);
    expectToMatchRouteTable(list);
    expect(list.body.data).toHaveLength(1);
    const invoice = list.body.data[0];
    // NGN 25,000.00 paid, 7.5 % VAT included: 23,255.81 + 1,744.19.
    expect(invoice).toMatchObject({
      number: expect.stringMatching(new RegExp(`^INV-${year}-\\d{6}$`)),
      payment_reference: reference,
      seller: { name: 'Partner Platform Ltd', address: '3 Broad Street\\nLagos 100001\\nNigeria', tax_id: 'TIN-09876543' },
      buyer: { name: 'Acme Learning Ltd', address: '12 Marina Road\nLagos 101241', tax_id: 'TIN-12345678', email: 'accounts@acme.example' },
      lines: [{ description: 'Credit pack: 500 certificate credits', quantity: 1, unit_price: { amount: 2325581, currency: 'NGN' }, amount: { amount: 2325581, currency: 'NGN' } }],
      subtotal: { amount: 2325581, currency: 'NGN' },
      vat: { rate: 7.5, amount: { amount: 174419, currency: 'NGN' } },
      total: { amount: 2500000, currency: 'NGN' },
      gateway_name: 'Paystack',
    });
    const one = await request(p.ctx.app).get(`/admin/v1/invoices/${invoice.id}`).set('Authorization', org.admin('member')).expect(200);
    expectToMatchRouteTable(one);
    expect(one.body).toEqual(invoice);

    // Billing history names the invoice of the paid payment.
    const history = await request(p.ctx.app).get('/admin/v1/payments').set('Authorization', org.admin()).expect(200);
    expectToMatchRouteTable(history);
    expect(history.body.data[0]).toMatchObject({ reference, status: 'succeeded', invoice: { id: invoice.id, number: invoice.number } });

    const pdf = await request(p.ctx.app).get(`/admin/v1/invoices/${invoice.id}/pdf`).set('Authorization', org.admin('member')).buffer(true).parse(binary).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    const text = await pdfText(pdf.body as Buffer);
    for (const expected of [
      'Invoice',
      invoice.number,
      reference,
      'Partner Platform Ltd',
      '3 Broad Street',
      'Lagos 100001',
      'Tax ID: TIN-09876543',
      'Acme Learning Ltd',
      '12 Marina Road',
      'Tax ID: TIN-12345678',
      'accounts@acme.example',
      'Credit pack: 500 certificate credits',
      'Unit price',
      'Quantity',
      'NGN 23,255.81',
      'VAT 7.5 %',
      'NGN 1,744.19',
      'Total (incl. VAT)',
      'NGN 25,000.00',
      'Paystack',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/Gateway A/);
  });

  it('keeps what it said when the billing details change later; a payment without them is billed to the organization by name', async () => {
    const org = newOrg(p.ctx);
    const first = await paidTopUp(org, 'credits_100');
    await first.deliver().expect(200);
    await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin()).send(BUYER).expect(200);
    const second = await paidTopUp(org, 'credits_100');
    await second.deliver().expect(200);
    const list = await invoicesOf(org).expect(200);
    expect(list.body.data.map((invoice: { payment_reference: string }) => invoice.payment_reference)).toEqual([second.reference, first.reference]);
    expect(list.body.data[1].buyer).toEqual({ name: org.orgName, address: null, tax_id: null, email: null });
    expect(list.body.data[0].buyer.name).toBe('Acme Learning Ltd');
    // One per page, newest first, then the next page from the cursor.
    const page = await request(p.ctx.app).get('/admin/v1/invoices?limit=1').set('Authorization', org.admin()).expect(200);
    expect([page.body.data[0].id, page.body.has_more]).toEqual([list.body.data[0].id, true]);
    const next = await request(p.ctx.app).get(`/admin/v1/invoices?limit=1&cursor=${page.body.next_cursor}`).set('Authorization', org.admin()).expect(200);
    expect([next.body.data[0].id, next.body.has_more, next.body.next_cursor]).toEqual([list.body.data[1].id, false, null]);
  });

  it('is its organization\'s only: another organization lists none of them and gets 404 JSON for each; an unknown id is 404 JSON', async () => {
    const org = newOrg(p.ctx);
    const other = newOrg(p.ctx);
    const { deliver } = await paidTopUp(org, 'credits_100');
    await deliver().expect(200);
    const [invoice] = (await invoicesOf(org).expect(200)).body.data;
    expect((await invoicesOf(other).expect(200)).body).toEqual({ data: [], has_more: false, next_cursor: null });
    for (const path of [`/admin/v1/invoices/${invoice.id}`, `/admin/v1/invoices/${invoice.id}/pdf`]) {
      const refused = await request(p.ctx.app).get(path).set('Authorization', other.admin()).expect(404);
      expect(refused.headers['content-type']).toMatch(/json/);
      expect(refused.body).toMatchObject({ code: 'not_found' });
    }
    for (const path of ['/admin/v1/invoices/in_00000000000000000000', '/admin/v1/invoices/in_00000000000000000000/pdf', '/admin/v1/invoices/INV-2026-000001', '/admin/v1/invoices/nonsense/pdf']) {
      const unknown = await request(p.ctx.app).get(path).set('Authorization', org.admin()).expect(404);
      expect(unknown.headers['content-type']).toMatch(/json/);
      expect(unknown.body).toMatchObject({ code: 'not_found' });
    }
    await request(p.ctx.app).get('/admin/v1/invoices?cursor=nonsense').set('Authorization', org.admin()).expect(422);
    await request(p.ctx.app).get('/admin/v1/invoices').expect(401);
  });

  it('splits VAT to the minor unit and formats amounts with thousands separators', () => {
    expect(splitVat(2500000, 7.5)).toEqual({ net: 2325581, vat: 174419, gross: 2500000 });
    expect(splitVat(500000, undefined)).toEqual({ net: 500000, vat: 0, gross: 500000 });
    expect(splitVat(101, 16)).toEqual({ net: 87, vat: 14, gross: 101 });
    expect(formatAmount(123456789, 'NGN')).toBe('NGN 1,234,567.89');
    expect(formatAmount(5, 'NGN')).toBe('NGN 0.05');
  });
});

describe('billing details', () => {
  it('are empty until an owner sets them; members read them; the change is audited', async () => {
    const org = newOrg(p.ctx);
    const empty = await request(p.ctx.app).get('/admin/v1/billing-details').set('Authorization', org.admin('member')).expect(200);
    expectToMatchRouteTable(empty);
    expect(empty.body).toEqual({ legal_name: null, address: null, tax_id: null, email: null, updated_at: null });
    const saved = await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin()).send({ ...BUYER, tax_id: null }).expect(200);
    expectToMatchRouteTable(saved);
    expect(saved.body).toMatchObject({ ...BUYER, tax_id: null, updated_at: expect.any(String) });
    expect((await request(p.ctx.app).get('/admin/v1/billing-details').set('Authorization', org.admin('member')).expect(200)).body).toEqual(saved.body);
    expect(await p.ctx.db('audit_log').where({ organization_id: org.org, action: 'billing_details.updated' })).toHaveLength(1);
  });

  it('refuses members, test mode and invalid details with JSON, changing nothing', async () => {
    const org = newOrg(p.ctx);
    await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin()).send(BUYER).expect(200);
    const member = await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin('member')).send({ ...BUYER, legal_name: 'Taken Over' }).expect(403);
    expect(member.body).toMatchObject({ code: 'insufficient_role' });
    const testMode = await request(p.ctx.app).put('/admin/v1/billing-details?mode=test').set('Authorization', org.admin()).send({ ...BUYER, legal_name: 'Test' }).expect(403);
    expect(testMode.body).toMatchObject({ code: 'test_mode_not_supported' });
    const invalid = await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin()).send({ legal_name: '', address: 'x', email: 'not an email', extra: 1 }).expect(422);
    expect(invalid.headers['content-type']).toMatch(/json/);
    expect(invalid.body.code).toBe('validation_failed');
    const fields = (invalid.body.details as { path: string }[]).map((detail) => detail.path);
    expect(fields).toEqual(expect.arrayContaining(['legal_name', 'email']));
    const multiLineName = await request(p.ctx.app).put('/admin/v1/billing-details').set('Authorization', org.admin()).send({ ...BUYER, legal_name: 'Two\nLines' }).expect(422);
    expect(multiLineName.body.code).toBe('validation_failed');
    expect((await request(p.ctx.app).get('/admin/v1/billing-details').set('Authorization', org.admin()).expect(200)).body).toMatchObject(BUYER);
  });
});

describe('invoice settings', () => {
  const warningsFor = (env: Record<string, string>) => {
    const lines: { msg: string; variables?: string[] }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const { NODE_ENV, ...rest } = env;
    // Parsed as in development (production also demands its secrets), then run as NODE_ENV says.
    const config = { ...parseConfig(certificateConfigSchema, { GATEWAY_B_SECRET_HASH: 'hash', ...rest }), NODE_ENV: NODE_ENV as 'production' | 'development' };
    warnAboutPaymentSettings(config, createLogger('certificate', 'info', sink));
    return lines.filter((line) => /invoices name the seller/.test(line.msg));
  };

  it('warns in production when invoices would lack the seller\'s address or tax id, not when both are set', () => {
    expect(warningsFor({ NODE_ENV: 'development' })).toEqual([]);
    expect(warningsFor({ NODE_ENV: 'production', INVOICE_SELLER_ADDRESS: 'Lagos' })).toEqual([
      expect.objectContaining({ msg: 'INVOICE_SELLER_TAX_ID unset: invoices name the seller (Partner Platform) without them', variables: ['INVOICE_SELLER_TAX_ID'] }),
    ]);
    expect(warningsFor({ NODE_ENV: 'production', INVOICE_SELLER_ADDRESS: 'Lagos', INVOICE_SELLER_TAX_ID: 'TIN-1' })).toEqual([]);
  });

  it('refuses a VAT rate that is not a percentage', () => {
    expect(() => parseConfig(certificateConfigSchema, { INVOICE_VAT_RATE: 'seven' })).toThrow(/INVOICE_VAT_RATE/);
    expect(() => parseConfig(certificateConfigSchema, { INVOICE_VAT_RATE: '120' })).toThrow(/INVOICE_VAT_RATE/);
    expect(parseConfig(certificateConfigSchema, { INVOICE_VAT_RATE: '7.5' }).INVOICE_VAT_RATE).toBe(7.5);
  });
});
