import request from 'supertest';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';
import { certificateInput, newOrg, type TestOrg } from './factories/admin';
import { gatewayAWebhook, gatewayBWebhook, signA } from './factories/payment-gateways';

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext();
});
afterAll(() => p.close());

const admin = (org: TestOrg, method: 'get' | 'post', path: string) => request(p.ctx.app)[method](`/admin/v1${path}`).set('Authorization', org.admin());
const certificatesOf = async (org: TestOrg) => Number((await p.ctx.db('certificates').where({ organization_id: org.org }).count({ n: '*' }))[0]!.n);
const balanceOf = async (org: TestOrg) => (await p.ctx.db('organizations').where({ id: org.org }).first())?.balance as number;

function expectControlCharacterRefusal(res: request.Response, path: string) {
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ error: expect.any(String), code: 'validation_failed', details: expect.arrayContaining([{ path, message: expect.stringMatching(/control characters/) }]) });
}

describe('control characters in text fields: 422 with the field, nothing written', () => {
  it("refuses a NUL in a certificate's recipient name and spends nothing", async () => {
    const org = newOrg(p.ctx);
    await admin(org, 'get', '/plans').expect(200); // the organization exists with its free credits
    const res = await admin(org, 'post', '/certificates').send(certificateInput({ recipient_name: 'Ada\u0000Lovelace' }));
    expectControlCharacterRefusal(res, 'recipient_name');
    expect([await certificatesOf(org), await balanceOf(org)]).toEqual([0, 10]);
  });

  it('refuses a control character in a batch row, JSON or CSV, and issues none of the batch', async () => {
    const org = newOrg(p.ctx);
    const json = await admin(org, 'post', '/certificates/batch').send({ certificates: [certificateInput(), certificateInput({ program_title: 'Engines\u0001' })] });
    expectControlCharacterRefusal(json, 'certificates.1.program_title');
    const csv = await admin(org, 'post', '/certificates/batch').set('Content-Type', 'text/csv').send('recipient_name,program_title,issue_date\nAda\u0000,Engines,2026-01-02\n');
    expect(csv.status).toBe(422);
    expect(csv.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ message: expect.stringMatching(/control characters/) })]));
    expect(await certificatesOf(org)).toBe(0);
  });

  it("refuses a NUL in an API key's name", async () => {
    const org = newOrg(p.ctx);
    const res = await admin(org, 'post', '/api-keys').send({ name: 'server\u0000key' });
    expectControlCharacterRefusal(res, 'name');
    expect(Number((await p.ctx.db('api_keys').where({ organization_id: org.org }).count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it('answers 404 for a path id or verification code holding a NUL', async () => {
    const org = newOrg(p.ctx);
    const calls = [['get', '/certificates/cert_%00'], ['post', '/certificates/%00/revoke'], ['post', '/api-keys/key_%00/rotate']] as const;
    for (const [method, path] of calls) {
      const res = await admin(org, method, path);
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    const key = await request(p.ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'verify' }).expect(201);
    const verified = await request(p.ctx.app).get('/api/v1/verify/ABC%00DEF').set('Authorization', `Bearer ${key.body.token as string}`);
    expect([verified.status, verified.body.code]).toEqual([404, 'not_found']);
  });

  it('refuses a NUL in a query string', async () => {
    const org = newOrg(p.ctx);
    expectControlCharacterRefusal(await admin(org, 'get', '/api-keys?cursor=%00'), 'cursor');
  });

  it('answers a NUL in a payment webhook with a 422, keeps the receipt and activates nothing', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    const bodyA = gatewayAWebhook(`${reference}\u0000`);
    expectControlCharacterRefusal(await p.sendA(bodyA, signA(bodyA)), 'data.reference');
    expect(await p.receiptOf(bodyA)).toMatchObject({ outcome: 'malformed' });
    const bodyB = gatewayBWebhook(`${reference}\u0000`, 285959875, 5000);
    expectControlCharacterRefusal(await p.sendB(bodyB), 'data.tx_ref');
    expect((await p.stateOf(org, reference)).upgrades).toBe(0);
  });
});
