import { createHash, createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { runTsToEnd } from '@platform/test-kit';
import { newOrg } from './factories/admin';
import { GATEWAY_B_HASH, gatewayAWebhook, gatewayBWebhook, signA } from './factories/payment-gateways';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext();
});
afterAll(() => p.close());
afterEach(() => {
  p.gateways.state.mode = 'normal';
});

const sha256 = (body: string) => createHash('sha256').update(body).digest('hex');

describe('gateway A signature', () => {
  it.each([
    ['missing', undefined],
    ['forged', 'a'.repeat(128)],
    ['signed with another key', createHmac('sha512', 'other').update('x').digest('hex')],
  ])('refuses a %s signature with 401, changes nothing and keeps metadata only', async (_label, signature) => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const calls = p.gateways.verifyCalls();
    const body = gatewayAWebhook(reference);
    const res = await p.sendA(body, signature).expect(401);
    expect(res.body).toMatchObject({ error: 'Invalid webhook signature', code: 'invalid_signature' });
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 10, plan: 'free', upgrades: 0, payment: { status: 'pending' } });
    expect(p.gateways.verifyCalls()).toBe(calls);
    const receipt = await p.receiptOf(body);
    expect(receipt).toMatchObject({ gateway: 'gateway-a', outcome: 'rejected_signature', body: null, body_size: Buffer.byteLength(body), body_sha256: sha256(body), reference: null });
    expect(receipt.received_at).toBeInstanceOf(Date);
  });

  it('checks the signature on the exact bytes: re-serialised JSON does not verify', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    const body = gatewayAWebhook(reference);
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    await p.sendA(pretty, signA(body)).expect(401);
  });

  it('answers malformed JSON with a valid signature with 400, never 500, and keeps the authenticated body', async () => {
    const body = `{"event": "charge.success", "id": "${randomBytes(6).toString('hex')}", "data": `;
    const res = await p.sendA(body, signA(body)).expect(400);
    expect(res.body).toMatchObject({ error: 'Request body is not valid JSON', code: 'invalid_json' });
    expect(await p.receiptOf(body)).toMatchObject({ outcome: 'malformed', body_size: Buffer.byteLength(body) });
    expect((await p.receiptOf(body)).body.toString('utf8')).toBe(body);
    const wrongShape = JSON.stringify({ event: 'charge.success', data: { reference: 42 } });
    expect((await p.sendA(wrongShape, signA(wrongShape)).expect(400)).body.code).toBe('malformed_webhook');
  });
});

describe('gateway A not configured', () => {
  it('answers 503 and keeps metadata only, since nothing could be authenticated', async () => {
    const bare = await startPaymentsContext({ GATEWAY_A_BASE_URL: '' });
    try {
      const body = gatewayAWebhook(`pay_${randomBytes(12).toString('hex')}`);
      const res = await bare.sendA(body, signA(body)).expect(503);
      expect(res.body.code).toBe('gateway_not_configured');
      expect(await bare.receiptOf(body)).toMatchObject({ gateway: 'gateway-a', outcome: 'not_configured', body: null, body_sha256: sha256(body) });
    } finally {
      await bare.close();
    }
  });
});

describe('gateway B secret hash', () => {
  it('refuses a wrong or missing secret hash with 401 when one is configured, keeping metadata only', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org, 'starter', 'gateway-b');
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959877');
    const body = gatewayBWebhook(reference, 285959877, 5000);
    expect((await p.sendB(body, 'wrong').expect(401)).body.code).toBe('invalid_signature');
    expect(await p.receiptOf(body)).toMatchObject({ outcome: 'rejected_signature', body: null, body_size: Buffer.byteLength(body) });
    await p.sendB(body, null).expect(401);
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0, payment: { status: 'pending' } });
  });

  describe('when GATEWAY_B_SECRET_HASH is unset', () => {
    let open: PaymentsContext;
    beforeAll(async () => {
      open = await startPaymentsContext({ GATEWAY_B_SECRET_HASH: '' });
    });
    afterAll(() => open.close());

    it('records a receipt of an unauthenticated call but never fails the pending payment', async () => {
      const org = newOrg(open.ctx);
      const { reference } = await open.checkout(org, 'starter', 'gateway-b');
      const body = gatewayBWebhook(reference, 999, 5000); // the verify API knows no transaction 999
      const calls = open.gateways.verifyCalls();
      await open.sendB(body, null).expect(200, { received: true });
      expect(await open.stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0, payment: { status: 'pending', failure_reason: null } });
      expect(await open.receiptOf(body)).toMatchObject({ gateway: 'gateway-b', outcome: 'unauthenticated', body: null, reference: null, body_sha256: sha256(body) });
      expect(open.gateways.verifyCalls()).toBe(calls);
    });

    it('does not activate on an unauthenticated call either: an authenticated one (hash set) does', async () => {
      const org = newOrg(open.ctx);
      const { reference } = await open.checkout(org, 'starter', 'gateway-b');
      open.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959890');
      const body = gatewayBWebhook(reference, 285959890, 5000);
      await open.sendB(body, GATEWAY_B_HASH).expect(200, { received: true }); // a header means nothing when no hash is set
      expect(await open.stateOf(org, reference)).toMatchObject({ balance: 10, plan: 'free', upgrades: 0, payment: { status: 'pending' } });

      p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'successful' }, '285959890');
      await p.sendB(body).expect(200, { received: true });
      expect(await p.stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1, payment: { status: 'succeeded' } });
    });
  });
});

describe('start-up warning about GATEWAY_B_SECRET_HASH', () => {
  const serviceDir = path.resolve(__dirname, '..');
  // No Postgres on port 1: the process logs its start-up warnings, then exits; nothing else runs.
  const production = {
    NODE_ENV: 'production',
    // Random: production refuses secrets made of words (secret-strength).
    JWT_SECRET: randomBytes(32).toString('base64'),
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    PORT: '0',
    PUBLIC_BASE_URL: 'https://api.example.com',
    DASHBOARD_ORIGINS: 'https://api.example.com',
    CREDENTIAL_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    ISSUER_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const WARNING = 'GATEWAY_B_SECRET_HASH is unset: gateway B webhooks cannot be authenticated, so they are recorded but never change a payment';

  it('warns in production when the hash is unset, and not when it is set', async () => {
    const unset = await runTsToEnd(serviceDir, 'src/server.ts', { ...production, GATEWAY_B_SECRET_HASH: '' });
    const warnings = unset.stdout.split('\n').filter((line) => line.includes(WARNING));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, variable: 'GATEWAY_B_SECRET_HASH' });

    const set = await runTsToEnd(serviceDir, 'src/server.ts', { ...production, GATEWAY_B_SECRET_HASH: randomBytes(32).toString('hex') });
    expect(set.stderr).toContain('Postgres is not reachable'); // it got as far as the database
    expect(set.stdout).not.toContain('GATEWAY_B_SECRET_HASH');
  });
});
