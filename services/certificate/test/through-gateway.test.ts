import { linkToken } from './helpers/mailbox';
import { createServer } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createApp as createGateway } from '@platform/gateway';
import { listen, type RunningServer } from '@platform/test-kit';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, issueCertificate, newOrg } from './factories/admin';
import { GATEWAY_A_SECRET, gatewayAWebhook, signA, startFakeGateways } from './factories/payment-gateways';

let ctx: TestContext;
let gateways: Awaited<ReturnType<typeof startFakeGateways>>;
let service: RunningServer;
let gateway: RunningServer;

beforeAll(async () => {
  gateways = await startFakeGateways();
  ctx = createTestContext({ GATEWAY_A_SECRET_KEY: GATEWAY_A_SECRET, GATEWAY_A_BASE_URL: gateways.url });
  service = await listen(createServer(ctx.app));
  const app = createGateway({
    config: { CERTIFICATE_URL: service.url, MOBILITY_URL: 'http://127.0.0.1:9', UPSTREAM_TIMEOUT_MS: 5000 },
    logger: pino({ level: 'silent' }),
  });
  gateway = await listen(createServer(app));
});
afterAll(async () => {
  await gateway.close();
  await service.close();
  await gateways.close();
  await ctx.close();
});

describe('certificate service through the gateway', () => {
  it('verifies a certificate and reads credits through the gateway', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const cert = await issueCertificate(ctx, org);
    const res = await request(gateway.url).get(`/api/v1/verify/${cert.verification_code}`).set('Authorization', `Bearer ${key.token}`).expect(200);
    expect(res.body).toMatchObject({ valid: true, certificate_status: 'valid', organization_name: org.orgName });
    await request(gateway.url).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200, { organization: org.orgName, balance: 9, plan: 'free', livemode: true });
    await request(gateway.url).get('/admin/v1/api-keys').set('Authorization', org.admin()).expect(404);
  });

  it('serves the public credential page and its JSON form without a key', async () => {
    const org = newOrg(ctx);
    const cert = await issueCertificate(ctx, org, { recipient_name: 'Kemi Adebayo' });
    const json = await request(gateway.url).get(`/credentials/${cert.verification_code}`).set('Accept', 'application/json').expect(200);
    expect(json.body).toMatchObject({ recipient_name: 'Kemi Adebayo', organization_name: org.orgName, status: 'valid' });
    const html = await request(gateway.url).get(`/credentials/${cert.verification_code}`).set('Accept', 'text/html').expect(200);
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect(html.text).toContain('Kemi Adebayo');
  });

  it('passes the verification ETag through and answers If-None-Match with 304, and the service’s 405 with Allow', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const cert = await issueCertificate(ctx, org);
    const auth = { Authorization: `Bearer ${key.token}` };
    const first = await fetch(`${gateway.url}/api/v1/verify/${cert.verification_code}`, { headers: auth });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${gateway.url}/api/v1/verify/${cert.verification_code}`, { headers: { ...auth, 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const wrongMethod = await fetch(`${gateway.url}/api/v1/credits`, { method: 'DELETE', headers: auth });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(wrongMethod.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('delivers a signed payment webhook byte for byte, so its signature still verifies', async () => {
    const org = newOrg(ctx);
    const checkout = await request(ctx.app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin()).send({ plan: 'starter', gateway: 'gateway-a' }).expect(201);
    const reference = checkout.body.reference;
    gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    // Unusual spacing and a non-ASCII name: any re-serialisation on the way would break the signature.
    const body = Buffer.from(gatewayAWebhook(reference).replace('{"event"', '{ "event"').replace('"paid_at"', '"customer":"Zoë Ñandú",  "paid_at"'));
    const res = await fetch(`${gateway.url}/webhooks/payments/gateway-a`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Gateway-Signature': signA(body) },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await ctx.db('payments').where({ reference }).first()).status).toBe('succeeded');
    expect((await ctx.db('organizations').where({ id: org.org }).first()).balance).toBe(110);
  });

  it('signs up through /dashboard/api/auth and uses the access token on /dashboard/api/certificate; without it the admin API is refused', async () => {
    const email = `gw.${Date.now()}@example.com`;
    await request(gateway.url)
      .post('/dashboard/api/auth/signup')
      .set('Origin', 'http://127.0.0.1:8080')
      .send({ email, password: 'correct horse battery', name: 'Ada', organization_name: 'Gateway Academy' })
      .expect(202);
    // The mailed link's token, confirmed through the gateway too: the account exists and is signed in.
    const signup = await request(gateway.url)
      .post('/dashboard/api/auth/verify-email')
      .set('Origin', 'http://127.0.0.1:8080')
      .send({ token: linkToken(ctx.mailbox.last(email), 'verify-email'), password: 'correct horse battery' })
      .expect(201);
    expect(String(signup.headers['set-cookie'])).toContain('Path=/dashboard/api/auth');
    const token = signup.body.access_token as string;
    await request(gateway.url).get('/dashboard/api/certificate/api-keys').expect(401);
    const keys = await request(gateway.url).post('/dashboard/api/certificate/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'via dashboard' }).expect(201);
    expect(keys.body.token).toMatch(/^ck_/);
    const members = await request(gateway.url).get('/dashboard/api/certificate/members').set('Authorization', `Bearer ${token}`).expect(200);
    expect(members.body.data).toEqual([expect.objectContaining({ email, role: 'owner' })]);
    const cookie = String(signup.headers['set-cookie']).split(';')[0]!;
    const refreshed = await request(gateway.url).post('/dashboard/api/auth/sessions/refresh').set('Origin', 'http://127.0.0.1:8080').set('Cookie', cookie).expect(200);
    expect(refreshed.body.organization.name).toBe('Gateway Academy');
  });
});
