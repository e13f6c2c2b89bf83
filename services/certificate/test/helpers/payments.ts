import { startTestMailbox } from './mailbox';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createDatabase } from '@platform/service-kit/db';
import { createLogger } from '@platform/service-kit/logger';
import { parseConfig } from '@platform/service-kit/config';
import { runDatabaseUrl } from '@platform/test-kit';
import { createApp } from '../../src/app';
import { buildServices } from '../../src/services';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../../src/config';
import type { TestContext } from './context';
import type { TestOrg } from '../factories/admin';
import { GATEWAY_B_HASH, paymentGatewayEnv, startFakeGateways } from '../factories/payment-gateways';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export const ERROR_LEVEL = 50;

/**
 * The app on this run's database with both fake gateways, for the payments test files; its log lines are kept in
 * `logs` so a test can assert what an operator would see.
 */
export async function startPaymentsContext(env: Record<string, string> = {}) {
  const gateways = await startFakeGateways();
  const url = runDatabaseUrl();
  // Short so a hanging verify API stays quick, yet long enough for 50 concurrent verify calls on a busy CI machine.
  const config = parseConfig(certificateConfigSchema, { DATABASE_URL: url, NODE_ENV: 'test', ...paymentGatewayEnv(gateways.url, 3000), ...env });
  const db = createDatabase(url, CERTIFICATE_SCHEMA, 5);
  const logs: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const services = buildServices({ db, config });
  const app = createApp({ db, config, logger: createLogger('certificate', 'info', sink) }, services);
  const ctx: TestContext = {
    app,
    db,
    config,
    services,
    mailbox: startTestMailbox(),
    close: async () => {
      await services.apiKeys.flushUsage();
      await db.destroy();
      await ctx.mailbox.close();
    },
  };

  const checkout = async (org: TestOrg, plan = 'starter', gateway = 'gateway-a', sub = org.owner) => {
    const res = await request(app).post('/admin/v1/subscriptions/checkout').set('Authorization', org.admin('owner', sub)).send({ plan, gateway }).expect(201);
    return res.body as { reference: string; amount: { amount: number; currency: string } };
  };
  /** Starts a credit top-up as the organization's owner; the answer carries the hosted page in `checkout_url`. */
  const topUp = async (org: TestOrg, pack = 'credits_500', gateway = 'gateway-a') => {
    const res = await request(app).post('/admin/v1/credits/top-ups').set('Authorization', org.admin()).send({ pack, gateway }).expect(201);
    return res.body as { reference: string; amount: { amount: number; currency: string }; credits: number; checkout_url: string };
  };
  const sendA = (body: string | Buffer, signature?: string) => {
    const req = request(app).post('/webhooks/payments/gateway-a').set('Content-Type', 'application/json');
    if (signature !== undefined) req.set('X-Gateway-Signature', signature);
    return req.send(body);
  };
  const sendB = (body: string, hash: string | null = GATEWAY_B_HASH) => {
    const req = request(app).post('/webhooks/payments/gateway-b').set('Content-Type', 'application/json');
    if (hash !== null) req.set('X-Webhook-Hash', hash);
    return req.send(body);
  };
  /** What the organization and its owner look like after a webhook: balance, plan, the payment, upgrade grants. */
  const stateOf = async (org: TestOrg, reference: string) => {
    const organization = await db('organizations').where({ id: org.org }).first();
    const user = await db('users').where({ organization_id: org.org, id: org.owner }).first();
    const payment = await db('payments').where({ reference }).first();
    const ledger = await db('credit_ledger').where({ organization_id: org.org, reason: 'plan_upgrade' });
    return { balance: organization.balance, plan: user.plan, payment, upgrades: ledger.length };
  };
  /** The latest receipt of these exact bytes (found by their SHA-256, so other test files' calls never interfere). */
  const receiptOf = (body: string) => db('payment_webhooks').where({ body_sha256: createHash('sha256').update(body).digest('hex') }).orderBy('id', 'desc').first();

  return {
    ctx,
    gateways,
    logs,
    checkout,
    topUp,
    sendA,
    sendB,
    stateOf,
    receiptOf,
    async close() {
      await db.destroy();
      await gateways.close();
      await ctx.mailbox.close();
    },
  };
}

export type PaymentsContext = Awaited<ReturnType<typeof startPaymentsContext>>;
