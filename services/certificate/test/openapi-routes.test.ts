import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Response } from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { declaredOperations, expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, createApiKey, issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64, templateInput } from './factories/templates';
import { ORIGIN, PASSWORD, signUp, uniqueEmail } from './factories/accounts';
import { linkToken } from './helpers/mailbox';
import { GATEWAY_B_HASH, gatewayAWebhook, gatewayBWebhook, paymentGatewayEnv, signA, startFakeGateways } from './factories/payment-gateways';

/**
 * Walks every route of the route table through the real app: each answer, happy or not, must be declared (status,
 * content type) and match its schema exactly (no undeclared field). The last test checks this table covers every operation.
 */
let ctx: TestContext;
let gateways: Awaited<ReturnType<typeof startFakeGateways>>;
let org: TestOrg;
let token: string;

beforeAll(async () => {
  gateways = await startFakeGateways();
  // 3 s: no scenario here waits on a hanging gateway, and a busy machine can take longer than 300 ms to open a checkout.
  ctx = createTestContext(paymentGatewayEnv(gateways.url, 3000));
  org = newOrg(ctx);
  token = (await createApiKey(ctx, org)).token;
});
afterAll(async () => {
  await ctx.close();
  await gateways.close();
});
afterEach(() => {
  gateways.state.mode = 'normal';
});

const app = () => request(ctx.app);
const asOwner = (req: request.Test, who: TestOrg = org) => req.set('Authorization', who.admin());
const withKey = (req: request.Test, key = token) => req.set('Authorization', `Bearer ${key}`);

async function checkout(gateway: 'gateway-a' | 'gateway-b', who = newOrg(ctx)) {
  const res = await asOwner(app().post('/admin/v1/subscriptions/checkout'), who).send({ plan: 'starter', gateway }).expect(201);
  return res.body.reference as string;
}
/** A paid plan of a new checkout of `who`: its invoice's id. */
async function paidInvoiceOf(who: TestOrg): Promise<string> {
  const reference = await checkout('gateway-a', who);
  gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
  const body = gatewayAWebhook(reference);
  await sendA(body, signA(body)).expect(200);
  return (await asOwner(app().get('/admin/v1/invoices'), who).expect(200)).body.data[0].id as string;
}
async function spentOrg() {
  const poor = newOrg(ctx);
  const ten = Array.from({ length: 10 }, () => certificateInput());
  await asOwner(app().post('/admin/v1/certificates/batch'), poor).send({ certificates: ten }).expect(201);
  return poor;
}
const sendA = (body: string, signature?: string) => {
  const req = app().post('/webhooks/payments/gateway-a').set('Content-Type', 'application/json');
  return (signature === undefined ? req : req.set('X-Gateway-Signature', signature)).send(body);
};
const sendB = (body: string, hash = GATEWAY_B_HASH) => app().post('/webhooks/payments/gateway-b').set('Content-Type', 'application/json').set('X-Webhook-Hash', hash).send(body);

type Scenario = [operation: string, status: number, label: string, act: () => Promise<Response>];

const accounts = (method: 'get' | 'post' | 'delete', path: string) => app()[method](`/accounts/v1${path}`).set('Origin', ORIGIN);
const bearerOf = (account: { accessToken: string | null }) => `Bearer ${account.accessToken}`;
async function invitationFrom(owner: { accessToken: string | null }, body: Record<string, unknown> = { role: 'member' }) {
  return (await app().post('/admin/v1/invitations').set('Authorization', bearerOf(owner)).send(body).expect(201)).body as { id: string; token: string };
}
async function ownerWithMember() {
  const owner = await signUp(ctx);
  const member = await signUp(ctx, { organization_name: undefined, invitation_token: (await invitationFrom(owner)).token });
  return { owner, member };
}

const scenarios: Scenario[] = [
  ['GET /api/v1/credits', 200, 'the balance', () => withKey(app().get('/api/v1/credits'))],
  ['GET /api/v1/credits', 401, 'no key', () => app().get('/api/v1/credits')],
  ['GET /api/v1/credits', 401, 'a revoked key', async () => {
    const key = await createApiKey(ctx, org);
    await asOwner(app().post(`/admin/v1/api-keys/${key.id}/revoke`)).expect(200);
    return withKey(app().get('/api/v1/credits'), key.token);
  }],
  ['GET /api/v1/verify/{code}', 200, 'a valid certificate', async () => withKey(app().get(`/api/v1/verify/${(await issueCertificate(ctx, org)).verification_code}`))],
  ['GET /api/v1/verify/{code}', 200, 'an expired certificate', async () => {
    const expired = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-01-01' });
    return withKey(app().get(`/api/v1/verify/${expired.verification_code.toLowerCase()}`));
  }],
  ['GET /api/v1/verify/{code}', 404, 'an unknown code', () => withKey(app().get('/api/v1/verify/ABCDEF-GHJKMN-PQRSTU'))],
  ['GET /api/v1/verify/{code}', 401, 'a mistyped key', () => withKey(app().get('/api/v1/verify/ABCDEF-GHJKMN-PQRSTU'), `${token}x`)],
  ['POST /webhooks/payments/gateway-a', 200, 'a verified charge', async () => {
    const reference = await checkout('gateway-a');
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    return sendA(body, signA(body));
  }],
  ['POST /webhooks/payments/gateway-a', 200, 'another event', () => {
    const body = gatewayAWebhook('pay_unknown', 500000, 'transfer.success');
    return sendA(body, signA(body));
  }],
  ['POST /webhooks/payments/gateway-a', 400, 'a signed body that is not an event', () => sendA('{"hello":1}', signA('{"hello":1}'))],
  ['POST /webhooks/payments/gateway-a', 401, 'no signature', () => sendA(gatewayAWebhook('pay_x'))],
  ['POST /webhooks/payments/gateway-a', 503, 'the verify API down', async () => {
    const reference = await checkout('gateway-a');
    gateways.state.mode = 'down';
    const body = gatewayAWebhook(reference);
    return sendA(body, signA(body));
  }],
  ['POST /webhooks/payments/gateway-b', 200, 'a verified charge', async () => {
    const reference = await checkout('gateway-b');
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '7001');
    return sendB(gatewayBWebhook(reference, 7001, 5000));
  }],
  ['POST /webhooks/payments/gateway-b', 401, 'a wrong hash', () => sendB(gatewayBWebhook('pay_x', 1, 5000), 'wrong')],
  ['POST /webhooks/payments/gateway-b', 400, 'a body that is not JSON', () => sendB('{"event":')],
  ['POST /admin/v1/api-keys', 201, 'a new key', () => asOwner(app().post('/admin/v1/api-keys')).send({ name: 'ci' })],
  ['POST /admin/v1/api-keys', 401, 'no token', () => app().post('/admin/v1/api-keys').send({ name: 'ci' })],
  ['POST /admin/v1/api-keys', 403, 'a member', () => app().post('/admin/v1/api-keys').set('Authorization', org.admin('member', 'user_member')).send({ name: 'ci' })],
  ['POST /admin/v1/api-keys', 415, 'a text body', () => asOwner(app().post('/admin/v1/api-keys')).set('Content-Type', 'text/plain').send('name=ci')],
  ['POST /admin/v1/api-keys', 422, 'no name', () => asOwner(app().post('/admin/v1/api-keys')).send({})],
  ['GET /admin/v1/api-keys', 200, 'the keys', () => asOwner(app().get('/admin/v1/api-keys'))],
  ['GET /admin/v1/api-keys', 401, 'a forged token', () => app().get('/admin/v1/api-keys').set('Authorization', 'Bearer a.b.c')],
  ['DELETE /admin/v1/api-keys/{id}', 204, 'a key', async () => asOwner(app().delete(`/admin/v1/api-keys/${(await createApiKey(ctx, org)).id}`))],
  ['DELETE /admin/v1/api-keys/{id}', 404, 'an unknown key', () => asOwner(app().delete('/admin/v1/api-keys/key_unknown'))],
  ['DELETE /admin/v1/api-keys/{id}', 403, 'a member', () => app().delete('/admin/v1/api-keys/key_unknown').set('Authorization', org.admin('member', 'user_member'))],
  ['POST /admin/v1/api-keys/{id}/rotate', 200, 'an active key', async () => asOwner(app().post(`/admin/v1/api-keys/${(await createApiKey(ctx, org)).id}/rotate`))],
  ['POST /admin/v1/api-keys/{id}/rotate', 409, 'a revoked key', async () => {
    const key = await createApiKey(ctx, org);
    await asOwner(app().post(`/admin/v1/api-keys/${key.id}/revoke`)).expect(200);
    return asOwner(app().post(`/admin/v1/api-keys/${key.id}/rotate`));
  }],
  ['POST /admin/v1/api-keys/{id}/rotate', 404, 'another organization\'s key', async () => {
    const other = newOrg(ctx);
    return asOwner(app().post(`/admin/v1/api-keys/${(await createApiKey(ctx, other)).id}/rotate`));
  }],
  ['POST /admin/v1/api-keys/{id}/revoke', 200, 'a key', async () => asOwner(app().post(`/admin/v1/api-keys/${(await createApiKey(ctx, org)).id}/revoke`))],
  ['POST /admin/v1/api-keys/{id}/revoke', 404, 'an unknown key', () => asOwner(app().post('/admin/v1/api-keys/key_unknown/revoke'))],
  ['POST /admin/v1/api-keys/{id}/revoke', 403, 'a member', () => app().post('/admin/v1/api-keys/key_unknown/revoke').set('Authorization', org.admin('member', 'user_member'))],
  ['POST /admin/v1/api-keys', 201, 'a key that expires', () => asOwner(app().post('/admin/v1/api-keys')).send({ name: 'ci', expires_at: '2099-01-01T00:00:00Z' })],
  ['POST /admin/v1/api-keys/{id}/rotate', 200, 'a grace period', async () => asOwner(app().post(`/admin/v1/api-keys/${(await createApiKey(ctx, org)).id}/rotate`)).send({ grace_seconds: 60 })],
  ['POST /admin/v1/api-keys/{id}/rotate', 422, 'a grace period over a day', async () => asOwner(app().post(`/admin/v1/api-keys/${(await createApiKey(ctx, org)).id}/rotate`)).send({ grace_seconds: 86401 })],
  ['POST /admin/v1/api-keys/{id}/rotate', 409, 'an expired key', async () => {
    const key = await createApiKey(ctx, org);
    await ctx.db('api_keys').where({ id: key.id }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    return asOwner(app().post(`/admin/v1/api-keys/${key.id}/rotate`));
  }],
  ['GET /admin/v1/api-keys', 200, 'a page', () => asOwner(app().get('/admin/v1/api-keys?limit=1'))],
  ['GET /admin/v1/api-keys', 422, 'a limit over 100', () => asOwner(app().get('/admin/v1/api-keys?limit=101'))],
  ['POST /admin/v1/certificates', 201, 'a certificate', () => asOwner(app().post('/admin/v1/certificates')).send(certificateInput({ expires_on: '2030-01-01' }))],
  ['POST /admin/v1/certificates', 401, 'no token', () => app().post('/admin/v1/certificates').send(certificateInput())],
  ['POST /admin/v1/certificates', 402, 'a balance of 0', async () => asOwner(app().post('/admin/v1/certificates'), await spentOrg()).send(certificateInput())],
  ['POST /admin/v1/certificates', 409, 'a taken number', async () => {
    const number = `N-${Date.now()}`;
    await issueCertificate(ctx, org, { certificate_number: number });
    return asOwner(app().post('/admin/v1/certificates')).send(certificateInput({ certificate_number: number }));
  }],
  ['POST /admin/v1/certificates', 415, 'a CSV body', () => asOwner(app().post('/admin/v1/certificates')).set('Content-Type', 'text/csv').send('a,b')],
  ['POST /admin/v1/certificates', 422, 'a bad date', () => asOwner(app().post('/admin/v1/certificates')).send(certificateInput({ issue_date: '2026-13-01' }))],
  ['GET /admin/v1/certificates', 200, 'a page', () => asOwner(app().get('/admin/v1/certificates?limit=2'))],
  ['GET /admin/v1/certificates', 422, 'a limit of 0', () => asOwner(app().get('/admin/v1/certificates?limit=0'))],
  ['GET /admin/v1/certificates', 401, 'no token', () => app().get('/admin/v1/certificates')],
  ['POST /admin/v1/certificates/batch', 201, 'a JSON batch', () => asOwner(app().post('/admin/v1/certificates/batch')).send({ certificates: [certificateInput()] })],
  ['POST /admin/v1/certificates/batch', 201, 'a CSV batch', () =>
    asOwner(app().post('/admin/v1/certificates/batch')).set('Content-Type', 'text/csv').send('recipient_name,program_title,issue_date\nGrace Hopper,Compilers,2026-05-02\n')],
  ['POST /admin/v1/certificates/batch', 402, 'a batch over the balance', () =>
    asOwner(app().post('/admin/v1/certificates/batch'), newOrg(ctx)).send({ certificates: Array.from({ length: 11 }, () => certificateInput()) })],
  ['POST /admin/v1/certificates/batch', 409, 'a number used twice', () =>
    asOwner(app().post('/admin/v1/certificates/batch'), newOrg(ctx)).send({ certificates: [certificateInput({ certificate_number: 'SAME' }), certificateInput({ certificate_number: 'SAME' })] })],
  ['POST /admin/v1/certificates/batch', 413, 'a body over 5 MB', () =>
    asOwner(app().post('/admin/v1/certificates/batch')).set('Content-Type', 'text/csv').send(`recipient_name,program_title,issue_date\n${'x'.repeat(5 * 1024 * 1024 + 10)}`)],
  ['POST /admin/v1/certificates/batch', 415, 'an XML body', () => asOwner(app().post('/admin/v1/certificates/batch')).set('Content-Type', 'application/xml').send('<a/>')],
  ['POST /admin/v1/certificates/batch', 422, 'a CSV without the required columns', () => asOwner(app().post('/admin/v1/certificates/batch')).set('Content-Type', 'text/csv').send('name\nAda\n')],
  ['GET /admin/v1/certificates/{id}', 200, 'a certificate', async () => asOwner(app().get(`/admin/v1/certificates/${(await issueCertificate(ctx, org)).id}`))],
  ['GET /admin/v1/certificates/{id}', 404, 'an id of the wrong shape', () => asOwner(app().get('/admin/v1/certificates/not-an-id'))],
  ['POST /admin/v1/certificates/{id}/revoke', 200, 'a certificate', async () => asOwner(app().post(`/admin/v1/certificates/${(await issueCertificate(ctx, org)).id}/revoke`))],
  ['POST /admin/v1/certificates/{id}/resend', 200, 'a certificate with a recipient email', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_email: 'walked@example.org' });
    return asOwner(app().post(`/admin/v1/certificates/${certificate.id}/resend`));
  }],
  ['POST /admin/v1/certificates/{id}/resend', 409, 'a certificate without one', async () => asOwner(app().post(`/admin/v1/certificates/${(await issueCertificate(ctx, org)).id}/resend`))],
  ['POST /admin/v1/certificates/{id}/revoke', 404, 'another organization\'s certificate', async () => {
    const other = newOrg(ctx);
    return asOwner(app().post(`/admin/v1/certificates/${(await issueCertificate(ctx, other)).id}/revoke`));
  }],
  ['GET /admin/v1/plans', 200, 'the catalogue', () => asOwner(app().get('/admin/v1/plans'))],
  ['GET /admin/v1/credits', 200, 'the balance', () => asOwner(app().get('/admin/v1/credits'))],
  ['GET /admin/v1/credits', 401, 'no token', () => app().get('/admin/v1/credits')],
  ['GET /admin/v1/credits/ledger', 200, 'the ledger', () => asOwner(app().get('/admin/v1/credits/ledger?limit=5'))],
  ['GET /admin/v1/summary', 200, 'the summary', () => asOwner(app().get('/admin/v1/summary?days=7'))],
  ['GET /admin/v1/summary', 422, 'a window too long', () => asOwner(app().get('/admin/v1/summary?days=365'))],
  ['GET /admin/v1/search', 200, 'a search', () => asOwner(app().get('/admin/v1/search?q=CERT'))],
  ['GET /admin/v1/search', 401, 'no token', () => app().get('/admin/v1/search?q=CERT')],
  ['GET /admin/v1/search', 422, 'a query too short', () => asOwner(app().get('/admin/v1/search?q=C'))],
  ['GET /admin/v1/credits/ledger', 422, 'a bad cursor', () => asOwner(app().get('/admin/v1/credits/ledger?cursor=abc'))],
  ['GET /admin/v1/plans', 401, 'no token', () => app().get('/admin/v1/plans')],
  ['GET /admin/v1/payment-gateways', 200, 'both gateways', () => asOwner(app().get('/admin/v1/payment-gateways'))],
  ['GET /admin/v1/payments', 200, 'the billing history', () => asOwner(app().get('/admin/v1/payments'))],
  ['GET /admin/v1/payments', 401, 'no token', () => app().get('/admin/v1/payments')],
  ['POST /admin/v1/templates/preview', 200, 'a draft', () => asOwner(app().post('/admin/v1/templates/preview')).send(templateInput())],
  ['POST /admin/v1/templates/preview', 422, 'a draft without a name', () => asOwner(app().post('/admin/v1/templates/preview')).send({ ...templateInput(), name: '' })],
  ['GET /admin/v1/payments/{reference}/receipt', 200, 'a paid payment', async () => {
    const who = newOrg(ctx);
    const reference = await checkout('gateway-a', who);
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    await sendA(body, signA(body)).expect(200);
    return asOwner(app().get(`/admin/v1/payments/${reference}/receipt`), who);
  }],
  ['GET /admin/v1/payments/{reference}/receipt', 404, 'a pending payment', async () => {
    const who = newOrg(ctx);
    return asOwner(app().get(`/admin/v1/payments/${await checkout('gateway-b', who)}/receipt`), who);
  }],
  ['GET /admin/v1/payment-gateways', 401, 'no token', () => app().get('/admin/v1/payment-gateways')],
  ['GET /admin/v1/invoices', 200, 'the invoices', async () => {
    const who = newOrg(ctx);
    await paidInvoiceOf(who);
    return asOwner(app().get('/admin/v1/invoices'), who);
  }],
  ['GET /admin/v1/invoices', 422, 'a bad cursor', () => asOwner(app().get('/admin/v1/invoices?cursor=abc'))],
  ['GET /admin/v1/invoices/{id}', 200, 'an invoice', async () => {
    const who = newOrg(ctx);
    return asOwner(app().get(`/admin/v1/invoices/${await paidInvoiceOf(who)}`), who);
  }],
  ['GET /admin/v1/invoices/{id}', 404, 'another organization\'s invoice', async () => asOwner(app().get(`/admin/v1/invoices/${await paidInvoiceOf(newOrg(ctx))}`))],
  ['GET /admin/v1/invoices/{id}/pdf', 200, 'an invoice', async () => {
    const who = newOrg(ctx);
    return asOwner(app().get(`/admin/v1/invoices/${await paidInvoiceOf(who)}/pdf`), who);
  }],
  ['GET /admin/v1/invoices/{id}/pdf', 404, 'an unknown id', () => asOwner(app().get('/admin/v1/invoices/in_00000000000000000000/pdf'))],
  ['GET /admin/v1/billing-details', 200, 'none set yet', () => asOwner(app().get('/admin/v1/billing-details'), newOrg(ctx))],
  ['GET /admin/v1/billing-details', 401, 'no token', () => app().get('/admin/v1/billing-details')],
  ['PUT /admin/v1/billing-details', 200, 'the details', () =>
    asOwner(app().put('/admin/v1/billing-details'), newOrg(ctx)).send({ legal_name: 'Acme Learning Ltd', address: '12 Marina Road\nLagos', tax_id: 'TIN-1', email: 'accounts@acme.example' })],
  ['PUT /admin/v1/billing-details', 403, 'a member', () =>
    app().put('/admin/v1/billing-details').set('Authorization', org.admin('member', 'user_member')).send({ legal_name: 'Acme', address: 'Lagos', email: 'a@acme.example' })],
  ['PUT /admin/v1/billing-details', 422, 'no email', () => asOwner(app().put('/admin/v1/billing-details'), newOrg(ctx)).send({ legal_name: 'Acme', address: 'Lagos' })],
  ['GET /admin/v1/credit-packs', 200, 'the packs', () => asOwner(app().get('/admin/v1/credit-packs'))],
  ['GET /admin/v1/credit-packs', 401, 'no token', () => app().get('/admin/v1/credit-packs')],
  ['POST /admin/v1/credits/top-ups', 201, 'a credit pack', () => asOwner(app().post('/admin/v1/credits/top-ups')).send({ pack: 'credits_500', gateway: 'gateway-a' })],
  ['POST /admin/v1/credits/top-ups', 403, 'a member', () => app().post('/admin/v1/credits/top-ups').set('Authorization', org.admin('member', 'user_member')).send({ pack: 'credits_100', gateway: 'gateway-a' })],
  ['POST /admin/v1/credits/top-ups', 422, 'an unknown pack', () => asOwner(app().post('/admin/v1/credits/top-ups')).send({ pack: 'credits_999', gateway: 'gateway-a' })],
  ['POST /admin/v1/subscriptions/checkout', 201, 'a paid plan', () => asOwner(app().post('/admin/v1/subscriptions/checkout')).send({ plan: 'pro', gateway: 'gateway-b' })],
  ['POST /admin/v1/subscriptions/checkout', 404, 'an unknown plan', () => asOwner(app().post('/admin/v1/subscriptions/checkout')).send({ plan: 'platinum', gateway: 'gateway-a' })],
  ['POST /admin/v1/subscriptions/checkout', 422, 'the free plan', () => asOwner(app().post('/admin/v1/subscriptions/checkout')).send({ plan: 'free', gateway: 'gateway-a' })],
  ['GET /credentials/{code}', 200, 'as JSON', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}`).set('Accept', 'application/json')],
  ['GET /credentials/{code}', 200, 'as HTML', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}`).set('Accept', 'text/html')],
  ['GET /credentials/{code}', 404, 'an unknown code as JSON', () => app().get('/credentials/ABCDEF-GHJKMN-PQRSTU').set('Accept', 'application/json')],
  ['GET /credentials/{code}', 404, 'an unknown code as HTML', () => app().get('/credentials/ABCDEF-GHJKMN-PQRSTU').set('Accept', 'text/html')],
  ['GET /credentials/{code}', 200, 'as the signed credential', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}`).set('Accept', 'application/vc+jwt')],
  ['GET /credentials/{code}', 200, 'as the credential with its Data Integrity proof', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}`).set('Accept', 'application/vc+ld+json')],
  ['GET /credentials/{code}/credential.json', 200, 'a certificate', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}/credential.json`)],
  ['GET /credentials/{code}/credential.json', 404, 'an unknown code', () => app().get('/credentials/ABCDEF-GHJKMN-PQRSTU/credential.json')],
  ['GET /credentials/status/{list}', 200, 'list 1 as JWT', async () => {
    await issueCertificate(ctx, newOrg(ctx));
    return app().get('/credentials/status/1');
  }],
  ['GET /credentials/status/{list}', 200, 'list 1 with its Data Integrity proof', () => app().get('/credentials/status/1').set('Accept', 'application/vc+ld+json')],
  ['GET /credentials/status/{list}', 404, 'a list nobody is on', () => app().get('/credentials/status/4000')],
  ['GET /credentials/verify', 200, 'the verifier page', () => app().get('/credentials/verify')],
  ['POST /credentials/verify', 200, 'a code', async () => app().post('/credentials/verify').send({ code: (await issueCertificate(ctx, newOrg(ctx))).verification_code })],
  ['POST /credentials/verify', 200, 'a forged JWT', () => app().post('/credentials/verify').set('Content-Type', 'application/vc+jwt').send('eyJhbGciOiJFZERTQSJ9.e30.c2ln')],
  ['POST /credentials/verify', 400, 'malformed JSON', () => app().post('/credentials/verify').set('Content-Type', 'application/json').send('{"code":')],
  ['POST /credentials/verify', 413, 'too big', () => app().post('/credentials/verify').send({ credential: 'x'.repeat(200_000) })],
  ['POST /credentials/verify', 415, 'not JSON', () => app().post('/credentials/verify').set('Content-Type', 'text/plain').send('hello')],
  ['POST /credentials/verify', 422, 'neither credential nor code', () => app().post('/credentials/verify').send({})],
  ['GET /credentials/assets/credentials.js', 200, 'the script', () => app().get('/credentials/assets/credentials.js')],
  ['GET /.well-known/did.json', 200, 'the DID document', () => app().get('/.well-known/did.json')],
  ['GET /.well-known/jwks.json', 200, 'the JWKS', () => app().get('/.well-known/jwks.json')],
  ['GET /issuers/{organization}/did.json', 200, "an organization's DID document", async () => {
    const issuer = newOrg(ctx);
    const certificate = await issueCertificate(ctx, issuer);
    await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+jwt').expect(200);
    return app().get(`/issuers/${issuer.org}/did.json`);
  }],
  ['GET /issuers/{organization}/did.json', 404, 'an organization with no key yet', () => app().get('/issuers/org_nobody/did.json')],
  ['GET /admin/v1/issuer', 200, 'the issuer', () => asOwner(app().get('/admin/v1/issuer'))],
  ['GET /admin/v1/issuer', 401, 'no token', () => app().get('/admin/v1/issuer')],
  ['POST /admin/v1/issuer/keys/rotate', 200, 'a new key', () => asOwner(app().post('/admin/v1/issuer/keys/rotate'))],
  ['POST /admin/v1/issuer/keys/rotate', 403, 'a member', () => app().post('/admin/v1/issuer/keys/rotate').set('Authorization', org.admin('member'))],
  ['POST /admin/v1/issuer/domain-verification', 201, 'a token to serve', () => asOwner(app().post('/admin/v1/issuer/domain-verification')).send({ domain: 'academy.example.org' })],
  ['POST /admin/v1/issuer/domain-verification', 422, 'not a domain', () => asOwner(app().post('/admin/v1/issuer/domain-verification')).send({ domain: 'not a domain' })],
  ['POST /admin/v1/issuer/domain-verification/check', 200, 'the proof served on loopback (allowed in this context only)', async () => {
    const local = createTestContext({ ISSUER_DOMAIN_ALLOW_HTTP: 'true', ISSUER_DOMAIN_ALLOW_PRIVATE: 'true' });
    let token = '';
    const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(token));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const owner = newOrg(local);
      const started = await request(local.app).post('/admin/v1/issuer/domain-verification').set('Authorization', owner.admin()).send({ domain: `127.0.0.1:${(server.address() as AddressInfo).port}` }).expect(201);
      token = started.body.token as string;
      return await request(local.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', owner.admin());
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await local.close();
    }
  }],
  ['POST /admin/v1/issuer/domain-verification/check', 409, 'none started', () => asOwner(app().post('/admin/v1/issuer/domain-verification/check'), newOrg(ctx))],
  ['POST /admin/v1/issuer/domain-verification/check', 422, 'a loopback domain (the SSRF guard)', async () => {
    const owner = newOrg(ctx);
    await asOwner(app().post('/admin/v1/issuer/domain-verification'), owner).send({ domain: '127.0.0.1' }).expect(201);
    return asOwner(app().post('/admin/v1/issuer/domain-verification/check'), owner);
  }],
  ['GET /credentials/{code}/document.pdf', 200, 'a certificate', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}/document.pdf`)],
  ['GET /credentials/{code}/document.pdf', 404, 'an unknown code', () => app().get('/credentials/ABCDEF-GHJKMN-PQRSTU/document.pdf')],
  ['GET /credentials/{code}/document.png', 200, 'a certificate', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}/document.png`)],
  ['GET /credentials/{code}/document.png', 404, 'an unknown code', () => app().get('/credentials/ABCDEF-GHJKMN-PQRSTU/document.png')],
  ['GET /credentials/{code}/logo', 200, "a certificate of a template with a logo", async () => {
    // An organization of its own: the shared one's free credits go to the other scenarios.
    const who = newOrg(ctx);
    const template = await createTemplate(ctx, who, { logo: { data: pngBase64(20, 10) } });
    const issued = await asOwner(app().post('/admin/v1/certificates'), who).send(certificateInput({ template_id: template.id, custom_fields: { grade: 'A' } })).expect(201);
    return app().get(`/credentials/${issued.body.verification_code}/logo`);
  }],
  ['GET /credentials/{code}/logo', 404, 'a certificate without a logo', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}/logo`)],
  ['GET /credentials/{code}/badge.png', 200, 'a certificate', async () => app().get(`/credentials/${(await issueCertificate(ctx, newOrg(ctx))).verification_code}/badge.png`)],
  ['GET /credentials/{code}/badge.png', 404, 'an unknown code', () => app().get('/credentials/ABCDEF-GHJKMN-PQRSTU/badge.png')],
  ['GET /admin/v1/certificates/{id}/document', 200, 'as PDF', async () => {
    const who = newOrg(ctx);
    return asOwner(app().get(`/admin/v1/certificates/${(await issueCertificate(ctx, who)).id}/document`), who);
  }],
  ['GET /admin/v1/certificates/{id}/document', 404, 'another organization\'s certificate', async () => asOwner(app().get(`/admin/v1/certificates/${(await issueCertificate(ctx, newOrg(ctx))).id}/document`))],
  ['GET /admin/v1/certificates/{id}/document', 422, 'an unknown format', async () => {
    const who = newOrg(ctx);
    return asOwner(app().get(`/admin/v1/certificates/${(await issueCertificate(ctx, who)).id}/document?format=gif`), who);
  }],
  ['POST /admin/v1/templates', 201, 'a template', () => asOwner(app().post('/admin/v1/templates')).send(templateInput())],
  ['POST /admin/v1/templates', 401, 'no token', () => app().post('/admin/v1/templates').send(templateInput())],
  ['POST /admin/v1/templates', 403, 'an operator', () => app().post('/admin/v1/templates').set('Authorization', org.admin('operator', 'user_operator')).send(templateInput())],
  ['POST /admin/v1/templates', 415, 'a text body', () => asOwner(app().post('/admin/v1/templates')).set('Content-Type', 'text/plain').send('name=x')],
  ['POST /admin/v1/templates', 422, 'an unknown placeholder', () => asOwner(app().post('/admin/v1/templates')).send(templateInput({ text_blocks: [{ text: '{{nope}}', x: 0, y: 0, width: 1 }] }))],
  ['GET /admin/v1/templates', 200, 'the templates', () => asOwner(app().get('/admin/v1/templates'))],
  ['GET /admin/v1/templates', 403, 'an operator', () => app().get('/admin/v1/templates').set('Authorization', org.admin('operator', 'user_operator'))],
  ['GET /admin/v1/templates/{id}', 200, 'a template', async () => asOwner(app().get(`/admin/v1/templates/${(await createTemplate(ctx, org)).id}`))],
  ['GET /admin/v1/templates/{id}', 404, 'another organization\'s template', async () => asOwner(app().get(`/admin/v1/templates/${(await createTemplate(ctx, newOrg(ctx))).id}`))],
  ['PATCH /admin/v1/templates/{id}', 200, 'a new version', async () => asOwner(app().patch(`/admin/v1/templates/${(await createTemplate(ctx, org)).id}`)).send({ name: 'Renamed' })],
  ['PATCH /admin/v1/templates/{id}', 409, 'an archived template', async () => {
    const template = await createTemplate(ctx, org);
    await asOwner(app().post(`/admin/v1/templates/${template.id}/archive`)).expect(200);
    return asOwner(app().patch(`/admin/v1/templates/${template.id}`)).send({ name: 'Renamed' });
  }],
  ['PATCH /admin/v1/templates/{id}', 422, 'dropping a custom field in use', async () => asOwner(app().patch(`/admin/v1/templates/${(await createTemplate(ctx, org)).id}`)).send({ custom_fields: [] })],
  ['POST /admin/v1/templates/{id}/preview', 200, 'an edit', async () => asOwner(app().post(`/admin/v1/templates/${(await createTemplate(ctx, org)).id}/preview`)).send({ name: 'Renamed', frame: { style: 'single' } })],
  ['POST /admin/v1/templates/{id}/preview', 422, 'an unknown date format', async () => asOwner(app().post(`/admin/v1/templates/${(await createTemplate(ctx, org)).id}/preview`)).send({ date_format: 'roman' })],
  ['GET /admin/v1/templates/{id}/versions', 200, 'the versions', async () => {
    const template = await createTemplate(ctx, org);
    await asOwner(app().patch(`/admin/v1/templates/${template.id}`)).send({ name: 'Renamed' }).expect(200);
    return asOwner(app().get(`/admin/v1/templates/${template.id}/versions`));
  }],
  ['GET /admin/v1/templates/{id}/versions', 404, 'an unknown template', () => asOwner(app().get('/admin/v1/templates/tpl_aaaaaaaaaaaaaaaaaaaa/versions'))],
  ['POST /admin/v1/templates/{id}/archive', 200, 'a template', async () => asOwner(app().post(`/admin/v1/templates/${(await createTemplate(ctx, org)).id}/archive`))],
  ['POST /admin/v1/templates/{id}/archive', 404, 'an unknown template', () => asOwner(app().post('/admin/v1/templates/tpl_aaaaaaaaaaaaaaaaaaaa/archive'))],
  ['POST /accounts/v1/signup', 202, 'a new owner', () => accounts('post', '/signup').send({ email: uniqueEmail(), password: PASSWORD, name: 'Ada', organization_name: 'Routes Academy' })],
  ['POST /accounts/v1/signup', 201, 'an invitation mailed to that email (it proved the address)', async () => {
    const owner = await signUp(ctx);
    const email = uniqueEmail();
    const invitation = await app().post('/admin/v1/invitations').set('Authorization', `Bearer ${owner.accessToken}`).send({ role: 'member', email }).expect(201);
    return accounts('post', '/signup').send({ email, password: PASSWORD, name: 'Grace', invitation_token: invitation.body.token });
  }],
  ['POST /accounts/v1/signup', 202, 'a taken email (the same answer)', async () => accounts('post', '/signup').send({ email: (await signUp(ctx)).email, password: PASSWORD, name: 'Ada' })],
  ['POST /accounts/v1/signup', 403, 'a foreign Origin', () => app().post('/accounts/v1/signup').set('Origin', 'https://evil.example').send({ email: uniqueEmail(), password: PASSWORD, name: 'Ada' })],
  ['POST /accounts/v1/signup', 404, 'an unknown invitation', () => accounts('post', '/signup').send({ email: uniqueEmail(), password: PASSWORD, name: 'Ada', invitation_token: 'x'.repeat(43) })],
  ['POST /accounts/v1/signup', 415, 'a form body', () => accounts('post', '/signup').type('form').send('email=a')],
  ['POST /accounts/v1/signup', 422, 'a short password', () => accounts('post', '/signup').send({ email: uniqueEmail(), password: 'short', name: 'Ada' })],
  ['POST /accounts/v1/sessions', 200, 'the right password', async () => accounts('post', '/sessions').send({ email: (await signUp(ctx)).email, password: PASSWORD })],
  ['POST /accounts/v1/sessions', 401, 'a wrong password', async () => accounts('post', '/sessions').send({ email: (await signUp(ctx)).email, password: 'not the password' })],
  ['POST /accounts/v1/sessions', 403, 'another organization', async () => accounts('post', '/sessions').send({ email: (await signUp(ctx)).email, password: PASSWORD, organization_id: 'org_someone_else' })],
  ['POST /accounts/v1/sessions', 422, 'no password', () => accounts('post', '/sessions').send({ email: uniqueEmail() })],
  ['POST /accounts/v1/sessions', 429, 'too many failures', async () => {
    const email = uniqueEmail('throttled');
    await ctx.db('sign_in_failures').insert({ subject: `login:${email}|127.0.0.1`, failures: 30, window_started_at: ctx.db.fn.now(), last_failed_at: ctx.db.fn.now() });
    return accounts('post', '/sessions').send({ email, password: PASSWORD });
  }],
  ['POST /accounts/v1/verify-email', 201, 'a mailed token', async () => {
    const email = uniqueEmail('routes');
    await accounts('post', '/signup').send({ email, password: PASSWORD, name: 'Ada' }).expect(202);
    return accounts('post', '/verify-email').send({ token: linkToken(ctx.mailbox.last(email), 'verify-email'), password: PASSWORD });
  }],
  ['POST /accounts/v1/verify-email', 401, 'not the password chosen at sign-up', async () => {
    const email = uniqueEmail('routes');
    await accounts('post', '/signup').send({ email, password: PASSWORD, name: 'Ada' }).expect(202);
    return accounts('post', '/verify-email').send({ token: linkToken(ctx.mailbox.last(email), 'verify-email'), password: 'not the sign-up password' });
  }],
  ['POST /accounts/v1/verify-email', 429, 'too many wrong passwords for this email from this address', async () => {
    const email = uniqueEmail('routes');
    await accounts('post', '/signup').send({ email, password: PASSWORD, name: 'Ada' }).expect(202);
    await ctx.db('sign_in_failures').insert({ subject: `login:${email}|127.0.0.1`, failures: 30, window_started_at: ctx.db.fn.now(), last_failed_at: ctx.db.fn.now() });
    return accounts('post', '/verify-email').send({ token: linkToken(ctx.mailbox.last(email), 'verify-email'), password: PASSWORD });
  }],
  ['POST /accounts/v1/verify-email', 404, 'an unknown token', () => accounts('post', '/verify-email').send({ token: 'x'.repeat(43), password: PASSWORD })],
  ['POST /accounts/v1/verify-email', 422, 'no token', () => accounts('post', '/verify-email').send({})],
  ['POST /accounts/v1/password-reset', 202, 'any email', () => accounts('post', '/password-reset').send({ email: uniqueEmail('forgot') })],
  ['POST /accounts/v1/password-reset', 422, 'not an email', () => accounts('post', '/password-reset').send({ email: 'nope' })],
  ['POST /accounts/v1/password-reset/confirm', 200, 'a mailed token', async () => {
    const account = await signUp(ctx);
    await accounts('post', '/password-reset').send({ email: account.email }).expect(202);
    return accounts('post', '/password-reset/confirm').send({ token: linkToken(await ctx.mailbox.arrived(account.email, 2), 'reset-password'), password: 'another good password' });
  }],
  ['POST /accounts/v1/password-reset/confirm', 404, 'an unknown token', () => accounts('post', '/password-reset/confirm').send({ token: 'x'.repeat(43), password: 'another good password' })],
  ['POST /accounts/v1/sessions/refresh', 200, 'a live cookie', async () => accounts('post', '/sessions/refresh').set('Cookie', (await signUp(ctx)).cookie)],
  ['POST /accounts/v1/sessions/refresh', 401, 'no cookie', () => accounts('post', '/sessions/refresh')],
  ['POST /accounts/v1/sessions/refresh', 403, 'an organization of others', async () => accounts('post', '/sessions/refresh').set('Cookie', (await signUp(ctx)).cookie).send({ organization_id: 'org_x' })],
  ['POST /accounts/v1/sessions/refresh', 422, 'an unknown field', async () => accounts('post', '/sessions/refresh').set('Cookie', (await signUp(ctx)).cookie).send({ org: 'x' })],
  ['DELETE /accounts/v1/sessions/current', 204, 'a signed-in browser', async () => accounts('delete', '/sessions/current').set('Cookie', (await signUp(ctx)).cookie)],
  ['DELETE /accounts/v1/sessions/current', 403, 'no Origin', async () => app().delete('/accounts/v1/sessions/current').set('Cookie', (await signUp(ctx)).cookie)],
  ['POST /accounts/v1/organizations', 201, 'a new organization', async () => accounts('post', '/organizations').set('Authorization', bearerOf(await signUp(ctx))).send({ name: 'Second' })],
  ['POST /accounts/v1/organizations', 401, 'no token or cookie', () => accounts('post', '/organizations').send({ name: 'Second' })],
  ['POST /accounts/v1/organizations', 422, 'no name', async () => accounts('post', '/organizations').set('Authorization', bearerOf(await signUp(ctx))).send({})],
  ['GET /accounts/v1/invitations/{token}', 200, 'a pending invitation', async () => app().get(`/accounts/v1/invitations/${(await invitationFrom(await signUp(ctx))).token}`)],
  ['GET /accounts/v1/invitations/{token}', 404, 'an unknown token', () => app().get(`/accounts/v1/invitations/${'y'.repeat(43)}`)],
  ['POST /accounts/v1/invitations/{token}/accept', 200, 'a signed-in account', async () => {
    const invitation = await invitationFrom(await signUp(ctx));
    return accounts('post', `/invitations/${invitation.token}/accept`).set('Authorization', bearerOf(await signUp(ctx)));
  }],
  ['POST /accounts/v1/invitations/{token}/accept', 403, 'another email', async () => {
    const invitation = await invitationFrom(await signUp(ctx), { role: 'member', email: uniqueEmail('invited') });
    return accounts('post', `/invitations/${invitation.token}/accept`).set('Authorization', bearerOf(await signUp(ctx)));
  }],
  ['POST /accounts/v1/invitations/{token}/accept', 404, 'a used invitation', async () => {
    const invitation = await invitationFrom(await signUp(ctx));
    await signUp(ctx, { organization_name: undefined, invitation_token: invitation.token });
    return accounts('post', `/invitations/${invitation.token}/accept`).set('Authorization', bearerOf(await signUp(ctx)));
  }],
  ['POST /accounts/v1/invitations/{token}/accept', 401, 'no token or cookie', async () => accounts('post', `/invitations/${(await invitationFrom(await signUp(ctx))).token}/accept`)],
  ['GET /admin/v1/audit-log', 200, 'the changes', async () => {
    const { owner } = await ownerWithMember();
    return app().get('/admin/v1/audit-log').set('Authorization', bearerOf(owner));
  }],
  ['GET /admin/v1/audit-log', 403, 'a member', async () => app().get('/admin/v1/audit-log').set('Authorization', bearerOf((await ownerWithMember()).member))],
  ['GET /admin/v1/audit-log', 422, 'a bad cursor', async () => app().get('/admin/v1/audit-log?cursor=nope').set('Authorization', bearerOf((await ownerWithMember()).owner))],
  ['GET /admin/v1/members', 200, 'the members', async () => app().get('/admin/v1/members').set('Authorization', bearerOf((await ownerWithMember()).member))],
  ['GET /admin/v1/members', 401, 'no token', () => app().get('/admin/v1/members')],
  ['PATCH /admin/v1/members/{account_id}', 200, 'a new role', async () => {
    const { owner, member } = await ownerWithMember();
    return app().patch(`/admin/v1/members/${member.accountId}`).set('Authorization', bearerOf(owner)).send({ role: 'operator' });
  }],
  ['PATCH /admin/v1/members/{account_id}', 409, 'the last owner', async () => {
    const owner = await signUp(ctx);
    return app().patch(`/admin/v1/members/${owner.accountId}`).set('Authorization', bearerOf(owner)).send({ role: 'member' });
  }],
  ['PATCH /admin/v1/members/{account_id}', 403, 'a member', async () => {
    const { owner, member } = await ownerWithMember();
    return app().patch(`/admin/v1/members/${owner.accountId}`).set('Authorization', bearerOf(member)).send({ role: 'member' });
  }],
  ['PATCH /admin/v1/members/{account_id}', 404, 'an unknown member', async () => app().patch('/admin/v1/members/acc_aaaaaaaaaaaaaaaaaaaa').set('Authorization', bearerOf(await signUp(ctx))).send({ role: 'member' })],
  ['PATCH /admin/v1/members/{account_id}', 422, 'an unknown role', async () => {
    const owner = await signUp(ctx);
    return app().patch(`/admin/v1/members/${owner.accountId}`).set('Authorization', bearerOf(owner)).send({ role: 'king' });
  }],
  ['DELETE /admin/v1/members/{account_id}', 204, 'a member', async () => {
    const { owner, member } = await ownerWithMember();
    return app().delete(`/admin/v1/members/${member.accountId}`).set('Authorization', bearerOf(owner));
  }],
  ['DELETE /admin/v1/members/{account_id}', 409, 'the last owner', async () => {
    const owner = await signUp(ctx);
    return app().delete(`/admin/v1/members/${owner.accountId}`).set('Authorization', bearerOf(owner));
  }],
  ['POST /admin/v1/invitations', 201, 'a link', async () => app().post('/admin/v1/invitations').set('Authorization', bearerOf(await signUp(ctx))).send({ role: 'operator' })],
  ['POST /admin/v1/invitations', 403, 'a member', async () => app().post('/admin/v1/invitations').set('Authorization', bearerOf((await ownerWithMember()).member)).send({ role: 'member' })],
  ['POST /admin/v1/invitations', 422, 'no role', async () => app().post('/admin/v1/invitations').set('Authorization', bearerOf(await signUp(ctx))).send({})],
  ['GET /admin/v1/invitations', 200, 'the pending links', async () => {
    const owner = await signUp(ctx);
    await invitationFrom(owner);
    return app().get('/admin/v1/invitations').set('Authorization', bearerOf(owner));
  }],
  ['GET /admin/v1/invitations', 401, 'no token', () => app().get('/admin/v1/invitations')],
  ['DELETE /admin/v1/invitations/{id}', 204, 'a pending link', async () => {
    const owner = await signUp(ctx);
    return app().delete(`/admin/v1/invitations/${(await invitationFrom(owner)).id}`).set('Authorization', bearerOf(owner));
  }],
  ['DELETE /admin/v1/invitations/{id}', 404, 'another organization\'s link', async () => {
    const theirs = await invitationFrom(await signUp(ctx));
    return app().delete(`/admin/v1/invitations/${theirs.id}`).set('Authorization', bearerOf(await signUp(ctx)));
  }],
  ['GET /healthz', 200, 'up', () => app().get('/healthz')],
  ['GET /readyz', 200, 'ready', () => app().get('/readyz')],
  ['GET /metrics', 200, 'metrics', () => app().get('/metrics')],
  ['GET /openapi.json', 200, 'the description', () => app().get('/openapi.json')],
];

describe('every certificate route answers as its route table declares', () => {
  it.each(scenarios)('%s → %i (%s)', async (_operation, status, _label, act) => {
    const res = await act();
    expect(res.status).toBe(status);
    expectToMatchRouteTable(res);
  });

  it('the walk covers every documented operation with its success and at least one error answer', () => {
    const walked = new Map<string, number[]>();
    for (const [operation, status] of scenarios) walked.set(operation, [...(walked.get(operation) ?? []), status]);
    const gaps = declaredOperations()
      .flatMap(({ method, path, statuses }) => {
        const seen = walked.get(`${method} ${path}`) ?? [];
        const success = statuses.find((s) => s.startsWith('2'));
        const errors = statuses.filter((s) => /^[45]/.test(s) && s !== '503');
        const missing = [];
        if (success && !seen.includes(Number(success))) missing.push(`${method} ${path} ${success}`);
        if (errors.length && !seen.some((s) => s >= 400)) missing.push(`${method} ${path} (no error answer)`);
        return missing;
      });
    expect(gaps).toEqual([]);
  });
});
