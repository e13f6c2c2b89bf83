/**
 * Drill: one address trickles request bodies. DRILL_SLOW_CLIENTS (default 300) webhook POSTs from 127.0.0.1 each
 * promise 1 kB and send one byte every 5 s, while a second client on 127.0.0.2 verifies a certificate through the
 * gateway for DRILL_SLOW_SECONDS (default 15 s, past the gateway's 10 s body deadline). The verifying client must see
 * no failure and a p99 under 1 s; the slow requests must end with a JSON 408 (body deadline) or 429 (per-address
 * cap), never reach the service as unfinished bodies.
 */
import { Agent, request } from 'node:http';
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import { adminAuth, must, sleep, summarize, suffix } from './lib';

const SLOW_CLIENTS = Number(process.env.DRILL_SLOW_CLIENTS ?? 300);
const SECONDS = Number(process.env.DRILL_SLOW_SECONDS ?? 15);
const VERIFIERS = 4;
const SECOND_CLIENT = '127.0.0.2';

interface Outcome {
  status: number;
  ms: number;
}

/** One GET from the second client's address; status 0 when it failed or took over 10 s. */
function verify(url: URL, auth: string, agent: Agent): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: auth }, agent, localAddress: SECOND_CLIENT, timeout: 10000 }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

/** A webhook POST that trickles its body one byte every 5 s; resolves to the status the gateway answers (0: none). */
function slowBody(gateway: URL, stop: Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const req = request({
      host: gateway.hostname,
      port: gateway.port,
      method: 'POST',
      path: '/webhooks/payments/gateway-a',
      headers: { 'content-type': 'application/json', 'content-length': '1024' },
      agent: false,
    });
    let settled = false;
    const finish = (status: number) => {
      if (settled) return;
      settled = true;
      clearInterval(trickle);
      req.destroy();
      resolve(status);
    };
    const trickle = setInterval(() => req.write(' '), 5000);
    req.write('{');
    req.once('response', (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.once('error', () => finish(0));
    void stop.then(() => finish(0));
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function slowBodyDrill(basePort: number): Promise<DrillResult> {
  const system = await startSystem('drill_slow', basePort, { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000' });
  try {
    const org = `drill_slow_${suffix()}`;
    const key = await must(`${system.certificate}/admin/v1/api-keys`, 'POST', adminAuth(org), { name: 'drill' });
    const cert = await must(`${system.certificate}/admin/v1/certificates`, 'POST', adminAuth(org), {
      recipient_name: 'Ada Lovelace',
      program_title: 'Engines',
      issue_date: '2026-05-01',
    });
    const gateway = new URL(system.gateway);
    const verifyUrl = new URL(`/api/v1/verify/${cert.verification_code as string}`, gateway);
    const auth = `Bearer ${key.token as string}`;

    const { promise: stop, resolve: release } = Promise.withResolvers<void>();
    const slow = Array.from({ length: SLOW_CLIENTS }, () => slowBody(gateway, stop));
    await sleep(500); // every slow request has sent its headers

    const agent = new Agent({ keepAlive: true, maxSockets: VERIFIERS });
    const outcomes: Outcome[] = [];
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: VERIFIERS }, async () => {
        while (Date.now() < until) outcomes.push(await verify(verifyUrl, auth, agent));
      }),
    );
    agent.destroy();
    release();
    const slowStatuses = await Promise.all(slow);

    const failed = outcomes.filter((o) => o.status !== 200).length;
    const p50 = percentile(outcomes.map((o) => o.ms), 50);
    const p99 = percentile(outcomes.map((o) => o.ms), 99);
    console.log(`  second client (${SECOND_CLIENT}): ${outcomes.length} verifies, ${summarize(outcomes.map((o) => o.status))}; p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target < 1000 ms)`);
    console.log(`  slow bodies (127.0.0.1): ${summarize(slowStatuses)} (0 = still open when the drill ended)`);
    return {
      name: `slow request bodies (${SLOW_CLIENTS} from one address, 1 byte / 5 s) while another client verifies`,
      sent: `${SLOW_CLIENTS} slow webhook POSTs; ${outcomes.length} verifies from ${SECOND_CLIENT} over ${SECONDS} s`,
      arrived: `verifies: ${summarize(outcomes.map((o) => o.status))}, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; slow POSTs: ${summarize(slowStatuses)}`,
      // A failed verify, or a p99 of 1 s or more, counts as lost: the second client was cut off.
      lost: failed + (p99 >= 1000 ? 1 : 0),
      doubleApplied: 0,
    };
  } finally {
    await system.stop();
  }
}
