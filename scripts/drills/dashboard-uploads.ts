/**
 * Drill: signed-in dashboard accounts flood the CSV batch upload. DRILL_UPLOADS (default 100) sockets each send a
 * 5 MiB − 1 byte body to `POST /dashboard/api/certificate/certificates/batch` at once — first all from one account,
 * then spread over DRILL_UPLOAD_ACCOUNTS (default 20) accounts (sign-up is free) — while another account lists its
 * certificates and a partner verifies a certificate through the gateway. The gateway streams dashboard bodies and caps
 * upload bytes in flight per account and per process, so its RSS must grow by less than 150 MB (sampled every 100 ms)
 * and the other users' requests must all be answered 200.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { startSystem, type RunningSystem } from '../system';
import type { DrillResult } from './drill';
import { adminAuth, must, sleep, summarize, suffix } from './lib';

const UPLOADS = Number(process.env.DRILL_UPLOADS ?? 100);
const ACCOUNTS = Number(process.env.DRILL_UPLOAD_ACCOUNTS ?? 20);
const BODY_BYTES = 5 * 1024 * 1024 - 1;
const MAX_GROWTH_MB = 150;

/** The gateway's pid: the child of the platform's start process that runs `dist/server.js` in `gateway/`. */
function gatewayPid(system: RunningSystem): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== system.process.pid) continue;
      if (readlinkSync(`/proc/${entry}/cwd`).endsWith('/gateway')) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  throw new Error('gateway process not found');
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** The path of the newest sign-up link mailed to `to`, from the local mail catcher `pnpm start` runs (named in its banner). */
async function mailedVerifyToken(system: RunningSystem, to: string): Promise<string> {
  const inbox = /mail inbox\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(system.output())?.[1];
  if (!inbox) throw new Error('pnpm start printed no mail inbox');
  for (let tries = 0; tries < 50; tries++) {
    const messages = (await (await fetch(`${inbox}messages`)).json()) as Array<{ to: string[]; text: string }>;
    const mail = messages.filter((message) => message.to.includes(to)).at(-1);
    const token = mail && /\/dashboard\/verify-email\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no sign-up mail for ${to}`);
}

/** A dashboard account signed up through the gateway and confirmed with its mailed link: its access token. */
export async function signUp(system: RunningSystem, label: string, email = `${label}_${suffix()}@drill.example`): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: system.gateway };
  const res = await fetch(`${system.gateway}/dashboard/api/auth/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'Drill User', organization_name: `Drill ${label}` }),
  });
  if (res.status !== 202) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const verified = await fetch(`${system.gateway}/dashboard/api/auth/verify-email`, { method: 'POST', headers, body: JSON.stringify({ token: await mailedVerifyToken(system, email), password: 'correct horse battery staple' }) });
  const body = (await verified.json()) as { access_token?: string };
  if (verified.status !== 201 || !body.access_token) throw new Error(`verify-email answered ${verified.status}: ${JSON.stringify(body)}`);
  return `Bearer ${body.access_token}`;
}

/** One 5 MiB − 1 byte upload, written as fast as the gateway takes it; resolves to the status (0: no answer). */
function bigUpload(gateway: URL, auth: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({
      host: gateway.hostname,
      port: gateway.port,
      method: 'POST',
      path: '/dashboard/api/certificate/certificates/batch',
      headers: { authorization: auth, 'content-type': 'text/csv', 'content-length': String(BODY_BYTES) },
      agent: false,
      timeout: 60000,
    });
    let status = 0;
    req.once('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.once('end', () => resolve(status));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(status));
    req.once('close', () => resolve(status));
    const header = Buffer.from('recipient_name,program_title,issue_date\n');
    req.write(header);
    req.end(Buffer.alloc(BODY_BYTES - header.length, 0x0a));
  });
}

interface Round {
  label: string;
  statuses: number[];
  others: number[];
  peakGrowthMb: number;
  afterMb: number;
}

async function attack(system: RunningSystem, pid: number, label: string, auths: string[], otherAuth: string, verify: { url: string; auth: string }): Promise<Round> {
  const gateway = new URL(system.gateway);
  const baseline = rssMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  let attacking = true;
  const others: number[] = [];
  const otherUsers = (async () => {
    while (attacking) {
      const list = await fetch(`${system.gateway}/dashboard/api/certificate/certificates?limit=5`, { headers: { authorization: otherAuth }, signal: AbortSignal.timeout(10000) }).catch(() => undefined);
      others.push(list?.status ?? 0);
      await list?.arrayBuffer();
      const verified = await fetch(verify.url, { headers: { authorization: verify.auth }, signal: AbortSignal.timeout(10000) }).catch(() => undefined);
      others.push(verified?.status ?? 0);
      await verified?.arrayBuffer();
    }
  })();
  const statuses = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => bigUpload(gateway, auths[i % auths.length]!)));
  attacking = false;
  await otherUsers;
  await sleep(3000); // the gateway gives the memory back
  clearInterval(sampler);
  const after = rssMb(pid);
  const round = { label, statuses, others, peakGrowthMb: peak - baseline, afterMb: after - baseline };
  console.log(`  ${label}: baseline RSS ${baseline.toFixed(0)} MB, peak +${round.peakGrowthMb.toFixed(0)} MB, 3 s after +${round.afterMb.toFixed(0)} MB (limit +${MAX_GROWTH_MB} MB)`);
  console.log(`    uploads: ${summarize(statuses)}; other users: ${summarize(others)}`);
  return round;
}

export async function dashboardUploadsDrill(basePort: number): Promise<DrillResult> {
  const system = await startSystem('drill_uploads', basePort, { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000', SIGN_UP_MAX_PER_ADDRESS: '1000' });
  try {
    const pid = gatewayPid(system);
    const org = `drill_uploads_${suffix()}`;
    const cert = await must(`${system.certificate}/admin/v1/certificates`, 'POST', adminAuth(org), { recipient_name: 'Ada Lovelace', program_title: 'Engines', issue_date: '2026-05-01' });
    const key = await must(`${system.certificate}/admin/v1/api-keys`, 'POST', adminAuth(org), { name: 'drill' });
    const verify = { url: `${system.gateway}/api/v1/verify/${cert.verification_code as string}`, auth: `Bearer ${key.token as string}` };
    const otherAuth = await signUp(system, 'bystander');
    const accounts: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await signUp(system, `attacker${i}`));
    // Warm up (first requests load code and pools), then measure.
    for (let i = 0; i < 20; i++) await (await fetch(`${system.gateway}/dashboard/api/certificate/certificates?limit=5`, { headers: { authorization: otherAuth } })).arrayBuffer();
    const rounds = [
      await attack(system, pid, `${UPLOADS} × 5 MiB from one account`, [accounts[0]!], otherAuth, verify),
      await attack(system, pid, `${UPLOADS} × 5 MiB from ${ACCOUNTS} accounts`, accounts, otherAuth, verify),
    ];
    const unanswered = rounds.reduce((n, r) => n + r.others.filter((s) => s !== 200).length, 0);
    const overGrowth = rounds.filter((r) => r.peakGrowthMb >= MAX_GROWTH_MB).length;
    return {
      name: `dashboard upload flood (${UPLOADS} × 5 MiB − 1 byte, one account, then ${ACCOUNTS})`,
      sent: rounds.map((r) => `${r.label}: ${r.statuses.length} uploads, ${r.others.length} other users' requests`).join('; '),
      arrived: rounds.map((r) => `${r.label}: RSS peak +${r.peakGrowthMb.toFixed(0)} MB, after +${r.afterMb.toFixed(0)} MB; uploads ${summarize(r.statuses)}; others ${summarize(r.others)}`).join('; '),
      // A bystander request not answered 200, or RSS growth of 150 MB or more, counts as lost.
      lost: unanswered + overGrowth,
      doubleApplied: 0,
    };
  } finally {
    await system.stop();
  }
}
