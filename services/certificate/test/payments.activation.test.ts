import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createDatabase, migrateLatest } from '@platform/service-kit/db';
import { migrations } from '../src/db/migrations';
import { createApiKey, newOrg } from './factories/admin';
import { gatewayAWebhook, signA } from './factories/payment-gateways';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';

let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext();
});
afterAll(() => p.close());

async function payAndActivate(org: ReturnType<typeof newOrg>, plan = 'starter', sub = org.owner) {
  const { reference, amount } = await p.checkout(org, plan, 'gateway-a', sub);
  p.gateways.charge({ reference, amountMinor: amount.amount, currency: 'NGN', status: 'success' });
  const body = gatewayAWebhook(reference, amount.amount);
  await p.sendA(body, signA(body)).expect(200, { received: true });
  return reference;
}

describe('activation', () => {
  it('activates a verified payment: plan set, credits added once, receipt stored with its body', async () => {
    const org = newOrg(p.ctx);
    const key = await createApiKey(p.ctx, org);
    const { reference } = await p.checkout(org);
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    await p.sendA(body, signA(body)).expect(200, { received: true });
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 110, plan: 'starter', upgrades: 1, payment: { status: 'succeeded' } });
    const credits = await request(p.ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${key.token}`).expect(200);
    expect(credits.body).toEqual({ organization: org.orgName, balance: 110, plan: 'starter', livemode: true });
    const receipts = await p.ctx.db('payment_webhooks').where({ reference });
    expect(receipts).toEqual([expect.objectContaining({ gateway: 'gateway-a', event: 'charge.success', outcome: 'activated', body_size: Buffer.byteLength(body) })]);
    expect(receipts[0].body.toString('utf8')).toBe(body);
    // The plan change is in the organization's audit log, made by the payment for the user who paid.
    expect(await p.ctx.db('audit_log').where({ organization_id: org.org, action: 'plan.changed' })).toEqual([
      expect.objectContaining({ actor_id: org.owner, actor_role: 'payment', target_id: reference, details: expect.objectContaining({ from: 'free', to: 'starter', gateway: 'gateway-a' }) }),
    ]);
  });

  it('credits exactly once when 50 copies of one successful webhook arrive at once', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const body = gatewayAWebhook(reference);
    const results = await Promise.all(Array.from({ length: 50 }, () => p.sendA(body, signA(body))));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 110, upgrades: 1 });
    expect(await p.ctx.db('payment_webhooks').where({ reference })).toHaveLength(50);
  });

  it('acknowledges other events, unknown references and replays with 200 and changes nothing', async () => {
    const org = newOrg(p.ctx);
    const { reference } = await p.checkout(org);
    p.gateways.charge({ reference, amountMinor: 500000, currency: 'NGN', status: 'success' });
    const other = gatewayAWebhook(reference, 500000, 'transfer.success');
    await p.sendA(other, signA(other)).expect(200, { received: true });
    const unknown = gatewayAWebhook('pay_doesnotexist000000000');
    await p.sendA(unknown, signA(unknown)).expect(200, { received: true });
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 10, upgrades: 0 });
    const body = gatewayAWebhook(reference);
    await p.sendA(body, signA(body)).expect(200);
    await p.sendA(body, signA(body)).expect(200);
    expect(await p.stateOf(org, reference)).toMatchObject({ balance: 110, upgrades: 1 });
  });
});

describe('a plan belongs to the user within its organization', () => {
  it('an upgrade by a `sub` in one organization does not show in another organization of the same `sub`', async () => {
    const sub = `user_shared_${randomBytes(4).toString('hex')}`;
    const first = newOrg(p.ctx);
    const second = newOrg(p.ctx);
    const firstKey = await createApiKey(p.ctx, { ...first, owner: sub, admin: (role, who = sub) => first.admin(role, who) });
    const secondKey = await createApiKey(p.ctx, { ...second, owner: sub, admin: (role, who = sub) => second.admin(role, who) });

    await payAndActivate(second, 'pro', sub);

    const inSecond = await request(p.ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${secondKey.token}`).expect(200);
    expect(inSecond.body).toEqual({ organization: second.orgName, balance: 510, plan: 'pro', livemode: true });
    const inFirst = await request(p.ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${firstKey.token}`).expect(200);
    expect(inFirst.body).toEqual({ organization: first.orgName, balance: 10, plan: 'free', livemode: true });
    expect(await p.ctx.db('users').where({ id: sub }).orderBy('plan')).toEqual([
      expect.objectContaining({ organization_id: first.org, plan: 'free' }),
      expect.objectContaining({ organization_id: second.org, plan: 'pro' }),
    ]);
    expect(await p.ctx.db('payments').where({ user_id: sub })).toEqual([expect.objectContaining({ organization_id: second.org, status: 'succeeded' })]);
  });

  it('migrates existing rows: each (organization, sub) gets its own user, with the plan it paid for there', async () => {
    const schema = `certificate_migration_${randomBytes(4).toString('hex')}`;
    const db = createDatabase(process.env.TEST_DATABASE_URL!, schema, 1);
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0010'));
      await migrateLatest(db, schema, before);
      await db('organizations').insert([{ id: 'org_a', name: 'A' }, { id: 'org_b', name: 'B' }]);
      // Under the old key, alice was first seen in A; her upgrade paid in B was written to that one row.
      await db('users').insert({ id: 'alice', organization_id: 'org_a', plan: 'pro' });
      await db('api_keys').insert([
        { id: 'key_a', organization_id: 'org_a', user_id: 'alice', name: 'a', token_hash: 'ha', token_hint: 'x' },
        { id: 'key_b', organization_id: 'org_b', user_id: 'alice', name: 'b', token_hash: 'hb', token_hint: 'x' },
      ]);
      await db('payments').insert({ reference: 'pay_b', organization_id: 'org_b', user_id: 'alice', plan: 'pro', amount: 2000000, currency: 'NGN', gateway: 'gateway-a', status: 'succeeded', activated_at: new Date() });

      await migrateLatest(db, schema, migrations);

      expect(await db('users').where({ id: 'alice' }).orderBy('organization_id').select('organization_id', 'plan')).toEqual([
        { organization_id: 'org_a', plan: 'free' },
        { organization_id: 'org_b', plan: 'pro' },
      ]);
      // Keys and payments point at the user of their own organization: deleting B's user takes B's key and payment only.
      await db('users').where({ organization_id: 'org_b', id: 'alice' }).delete();
      expect(await db('api_keys').pluck('id')).toEqual(['key_a']);
      expect(await db('payments').pluck('reference')).toEqual([]);
    } finally {
      await db.raw('drop schema ?? cascade', [schema]);
      await db.destroy();
    }
  });
});
