/**
 * Drill: the payment gateway's verify API times out for a while. Webhooks sent meanwhile must get 503 and activate
 * nothing; the gateway's retries after recovery must activate each payment exactly once. Checkout (opening the hosted
 * payment page) keeps working: only verification is out.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signAdminToken } from '@platform/service-kit/admin-auth';
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import { jwtSecret } from './lib';

const SECRET = 'sk_drill_gateway_a';
const PAYMENTS = 20;

export async function paymentVerifyTimeoutDrill(basePort: number): Promise<DrillResult> {
  let outage = true;
  const charges = new Map<string, number>();
  const verifyApi = createServer((req, res) => {
    // Opening a hosted payment page works throughout: only the verify API is out.
    if (req.method === 'POST' && (req.url ?? '').endsWith('/transaction/initialize')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ status: true, data: { authorization_url: 'https://checkout.gateway-a.example/pay/drill' } }));
    }
    if (outage) return; // hangs until the service's timeout
    const reference = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    const amount = charges.get(reference);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(amount === undefined ? { status: false } : { status: true, data: { status: 'success', reference, amount, currency: 'NGN' } }));
  });
  await new Promise<void>((resolve) => verifyApi.listen(0, '127.0.0.1', resolve));
  const system = await startSystem('drill_payments', basePort, {
    GATEWAY_A_SECRET_KEY: SECRET,
    GATEWAY_A_BASE_URL: `http://127.0.0.1:${(verifyApi.address() as AddressInfo).port}`,
    PAYMENT_VERIFY_TIMEOUT_MS: '1000',
  });
  try {
    const orgs = Array.from({ length: PAYMENTS }, (_, i) => `drill_org_${i}`);
    const references: Array<{ org: string; reference: string }> = [];
    for (const org of orgs) {
      const admin = `Bearer ${signAdminToken({ sub: `${org}_owner`, org, role: 'owner' }, jwtSecret())}`;
      const res = await fetch(`${system.certificate}/admin/v1/subscriptions/checkout`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'starter', gateway: 'gateway-a' }),
      });
      const answer = (await res.json()) as { reference?: string };
      // A checkout that did not start is the drill's own set-up failing, not a lost payment: say so and stop.
      if (res.status !== 201 || typeof answer.reference !== 'string') throw new Error(`checkout for ${org} answered ${res.status}: ${JSON.stringify(answer)}`);
      const { reference } = answer;
      charges.set(reference, 500000);
      references.push({ org, reference });
    }
    const send = async (reference: string) => {
      const body = JSON.stringify({ event: 'charge.success', data: { id: 1, reference, amount: 500000, currency: 'NGN', status: 'success' } });
      const res = await fetch(`${system.gateway}/webhooks/payments/gateway-a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gateway-signature': createHmac('sha512', SECRET).update(body).digest('hex') },
        body,
      });
      return res.status;
    };
    const during = await Promise.all(references.map((r) => send(r.reference)));
    outage = false;
    // The payment gateway retries: three more copies of each webhook, all at once.
    const after = await Promise.all(references.flatMap((r) => [send(r.reference), send(r.reference), send(r.reference)]));
    const balances = await Promise.all(
      references.map(async ({ org }) => {
        const admin = `Bearer ${signAdminToken({ sub: `${org}_owner`, org, role: 'owner' }, jwtSecret())}`;
        const key = (await (await fetch(`${system.certificate}/admin/v1/api-keys`, { method: 'POST', headers: { authorization: admin, 'content-type': 'application/json' }, body: '{"name":"drill"}' })).json()) as { token: string };
        const credits = (await (await fetch(`${system.gateway}/api/v1/credits`, { headers: { authorization: `Bearer ${key.token}` } })).json()) as { balance: number; plan: string };
        return credits;
      }),
    );
    const activated = balances.filter((b) => b.balance === 110 && b.plan === 'starter').length;
    const doubleApplied = balances.filter((b) => b.balance > 110).length;
    return {
      name: 'payment verify API times out, then recovers',
      sent: `${PAYMENTS} webhooks during the outage (answers: ${summarize(during)}), then ${after.length} retries (answers: ${summarize(after)})`,
      arrived: `${activated} of ${PAYMENTS} upgrades activated`,
      lost: PAYMENTS - activated,
      doubleApplied,
    };
  } finally {
    await system.stop();
    verifyApi.closeAllConnections();
    verifyApi.close();
  }
}

function summarize(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count}× ${status}`).join(', ');
}
