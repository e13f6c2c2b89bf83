/**
 * Drill: a few free accounts flood each shared resource while a bystander tenant works (issue 35's "Must show").
 * N = DRILL_FAIR_SHARE_ACCOUNTS (default 4) free accounts, each at its limits, flood one resource per phase while a
 * bystander measures its own requests (success rate, p50, p99) and the certificate service's RSS is sampled every
 * 100 ms from /proc:
 *  a. uploads: each account keeps DRILL_FAIR_SHARE_UPLOADS (default 24) batch uploads in flight that declare 5 MiB and
 *     send 1 KiB (renewed when cut off); the bystander issues one certificate at a time through the dashboard API.
 *  b. template previews: 20 concurrent previews of three 4000 × 4000 PNGs from the accounts; the bystander signs in.
 *  c. previews vs first documents: every organization of the accounts (3 each) keeps its render budget full of
 *     previews of a 4000 × 4000 background; the bystander issues certificates and asks for their first public PDF
 *     (202 then 200 is success, a 503 is a failure).
 *  d. streams (STREAM_MAX_PER_PROCESS 40): the accounts' organizations open job event streams until refused and keep
 *     asking; the bystander opens its first stream (success: 200 and a `status` event) again and again.
 *  e. recover: the accounts' organizations create endpoints and call recover in a loop for 10 s; the webhook POSTs
 *     their receiver gets must stay bounded, and the bystander's own recover must be a 202 whose deliveries arrive.
 * Dashboard phases (a–c) use real sign-ups through `/dashboard/api/auth` (each account makes its two more organizations
 * there); mobility phases (d, e) use organizations made with admin tokens signed as lib.ts does (mobility has no
 * accounts: its keys belong to organizations). Rate limits per key and per client address are raised (every client
 * here is 127.0.0.1): the drill is about the shared totals. `DRILL_FAIR_SHARE_PHASES=a,c` runs some phases.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request, type ClientRequest } from 'node:http';
import path from 'node:path';
import { MOBILITY_SCOPES } from '@platform/api-keys';
import { startSystem, type RunningSystem } from '../system';
import type { DrillResult } from './drill';
import { signUp } from './dashboard-uploads';
import { adminAuth, callJson, must, query, rideBody, randomCentre, sleep, startReceiver, summarize, suffix, type Receiver } from './lib';

const ACCOUNTS = Number(process.env.DRILL_FAIR_SHARE_ACCOUNTS ?? 4);
const UPLOADS_PER_ACCOUNT = Number(process.env.DRILL_FAIR_SHARE_UPLOADS ?? 24);
const PHASE_MS = Number(process.env.DRILL_FAIR_SHARE_PHASE_MS ?? 30_000);
const ORGANIZATIONS_PER_ACCOUNT = 3;
/** The bystander's work with no flood, before each certificate phase (what the flood is compared with). */
const QUIET_MS = Number(process.env.DRILL_FAIR_SHARE_QUIET_MS ?? 8000);
const STREAM_MAX_PER_PROCESS = 40;
const PASSWORD = 'correct horse battery staple';
const SUCCESS_TARGET = 99;
const P99_TARGET_MS = 1000;
/** Webhook POSTs the flooding organizations' endpoints may get in phase e: they made no events after their endpoints. */
const FLOOD_DELIVERY_BOUND = 20;

// ---------------------------------------------------------------------------------------------------------------- helpers

interface Canvas2d {
  fillStyle: string;
  fillRect(x: number, y: number, width: number, height: number): void;
}
const canvas = createRequire(path.resolve(__dirname, '../../services/certificate/package.json'))('@napi-rs/canvas') as {
  createCanvas(width: number, height: number): { getContext(kind: '2d'): Canvas2d; toBuffer(type: 'image/png'): Buffer };
};

/** A flat-colour PNG: a few kB on the wire, `width × height` pixels once decoded. */
function flatPng(width: number, height: number, colour: string): string {
  const surface = canvas.createCanvas(width, height);
  const context = surface.getContext('2d');
  context.fillStyle = colour;
  context.fillRect(0, 0, width, height);
  return surface.toBuffer('image/png').toString('base64');
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The pid of the system's server process running in `dir` (e.g. `services/certificate`; not mobility's worker). */
function childPid(system: RunningSystem, dir: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const server = readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('dist/server.js');
      if (ppid === system.process.pid && server && readlinkSync(`/proc/${entry}/cwd`).endsWith(`/${dir}`)) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  throw new Error(`${dir} process not found`);
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The certificate container's memory limit in MiB, read from the manifest. */
function k8sMemoryLimitMb(): number {
  const manifest = readFileSync(path.resolve(__dirname, '../../infra/k8s/certificate.yaml'), 'utf8');
  const match = /limits:\s*\{[^}]*memory:\s*(\d+)(Mi|Gi)/.exec(manifest);
  return match ? Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1) : Number.POSITIVE_INFINITY;
}

/** Samples a process's RSS every 100 ms until stopped: its peak. */
function rssSampler(pid: number) {
  const start = rssMb(pid);
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  return {
    start,
    stop(): number {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}

/** Runs the bystander's work for QUIET_MS with no flood: its meter, and the certificate RSS it started from and peaked at. */
async function quietly(pid: number, work: (meter: Meter, until: number) => Promise<void>): Promise<NonNullable<PhaseResult['quiet']>> {
  const rss = rssSampler(pid);
  const meter = new Meter();
  await work(meter, Date.now() + QUIET_MS);
  return { meter, startRssMb: rss.start, peakRssMb: rss.stop() };
}

/** The claims of a JWT (not verified: the drill reads its own tokens). */
function claimsOf(auth: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(auth.replace(/^Bearer /, '').split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

/** The bystander's requests: each one's status, latency and whether it counted as a success. */
class Meter {
  readonly latencies: number[] = [];
  readonly statuses: number[] = [];
  ok = 0;

  record(status: number, ms: number, success: boolean): void {
    this.statuses.push(status);
    this.latencies.push(ms);
    if (success) this.ok++;
  }

  async time<T>(call: () => Promise<{ status: number } & T>, success: (answer: { status: number } & T) => boolean): Promise<{ status: number } & T> {
    const started = performance.now();
    const answer = await call();
    this.record(answer.status, performance.now() - started, success(answer));
    return answer;
  }

  get count(): number {
    return this.statuses.length;
  }
  get successPercent(): number {
    return this.count ? (100 * this.ok) / this.count : 0;
  }
}

interface PhaseResult {
  phase: string;
  flood: string;
  bystander: Meter;
  peakRssMb: number | null;
  /** The same bystander work with no flood just before (certificate phases): its requests and the RSS it started from and peaked at. */
  quiet?: { meter: Meter; startRssMb: number; peakRssMb: number };
  /** Conditions of the phase beyond success rate, p99 and RSS (each false one fails the verdict). */
  extra: Array<{ what: string; ok: boolean }>;
  notes: string[];
}

function verdict(r: PhaseResult, limitMb: number): { ok: boolean; why: string[] } {
  const why: string[] = [];
  if (r.bystander.count === 0) why.push('no bystander request');
  if (r.bystander.successPercent < SUCCESS_TARGET) why.push(`success ${r.bystander.successPercent.toFixed(1)} % < ${SUCCESS_TARGET} %`);
  const p99 = percentile(r.bystander.latencies, 99);
  if (p99 >= P99_TARGET_MS) why.push(`p99 ${p99.toFixed(0)} ms ≥ ${P99_TARGET_MS} ms`);
  if (r.peakRssMb !== null && r.peakRssMb >= limitMb) why.push(`RSS ${r.peakRssMb.toFixed(0)} MB ≥ ${limitMb} MB`);
  for (const e of r.extra) if (!e.ok) why.push(e.what);
  return { ok: why.length === 0, why };
}

function quietText(r: PhaseResult): string {
  if (!r.quiet) return '-';
  const m = r.quiet.meter;
  return `${m.count}, ${m.successPercent.toFixed(1)} %, ${percentile(m.latencies, 50).toFixed(0)}/${percentile(m.latencies, 99).toFixed(0)}, ${r.quiet.startRssMb.toFixed(0)}→${r.quiet.peakRssMb.toFixed(0)}`;
}

const dashboardHeaders = (system: RunningSystem, auth: string) => ({ authorization: auth, origin: system.gateway });

// --------------------------------------------------------------------------------------------------------- the accounts

interface Account {
  email: string;
  /** One access token per organization of the account (the sign-up's first). */
  organizations: string[];
}

/** A free account signed up through the gateway, with its two more organizations made there too (when allowed). */
async function freeAccount(system: RunningSystem, label: string): Promise<Account> {
  const email = `${label}_${suffix()}@drill.example`;
  const first = await signUp(system, label, email);
  const organizations = [first];
  for (let i = 1; i < ORGANIZATIONS_PER_ACCOUNT; i++) {
    const made = await callJson(`${system.gateway}/dashboard/api/auth/organizations`, 'POST', first, { name: `Drill ${label} ${i}` }, { origin: system.gateway });
    const token = ((made.body.session as { access_token?: string } | undefined) ?? made.body).access_token as string | undefined;
    if (made.status !== 201 || !token) {
      console.log(`    (${label}: organization ${i + 1} refused: ${made.status} ${JSON.stringify(made.body).slice(0, 160)}; going on with ${organizations.length})`);
      break;
    }
    organizations.push(`Bearer ${token}`);
  }
  return { email, organizations };
}

/** A bystander signed up like the others, whose email the drill knows (to sign in), topped up with credits in the database. */
async function bystanderAccount(system: RunningSystem): Promise<{ auth: string; email: string }> {
  const email = `bystander_${suffix()}@drill.example`;
  const auth = await signUp(system, 'bystander', email);
  // A working tenant, not a free one: enough credits for a loop of issues (a free plan has 10).
  await query(system, 'update certificate.organizations set balance = 100000 where id = $1', [claimsOf(auth).org]);
  return { auth, email };
}

/** One template preview through the gateway, its body read to the end; resolves to the status (0: no answer in time). */
async function postPreview(system: RunningSystem, auth: string, body: string, timeoutMs: number): Promise<number> {
  const res = await fetch(`${system.gateway}/dashboard/api/certificate/templates/preview`, {
    method: 'POST',
    headers: { ...dashboardHeaders(system, auth), 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  }).catch(() => null);
  await res?.arrayBuffer().catch(() => undefined);
  return res?.status ?? 0;
}

// ------------------------------------------------------------------------------------------------------- a. uploads

/** One batch upload declaring 5 MiB that sends 1 KiB and stalls; resolves to the gateway's status (0: none) when cut off or stopped. */
function stalledUpload(system: RunningSystem, auth: string, open: Set<ClientRequest>): Promise<number> {
  const gateway = new URL(system.gateway);
  return new Promise((resolve) => {
    const req = request({
      host: gateway.hostname,
      port: gateway.port,
      method: 'POST',
      path: '/dashboard/api/certificate/certificates/batch',
      headers: { authorization: auth, origin: system.gateway, 'content-type': 'text/csv', 'content-length': String(5 * 1024 * 1024) },
      agent: false,
      timeout: 60000,
    });
    open.add(req);
    let status = 0;
    const done = () => {
      open.delete(req);
      resolve(status);
    };
    req.once('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.once('end', () => {
        req.destroy();
        done();
      });
    });
    req.once('timeout', () => req.destroy());
    req.once('error', done);
    req.once('close', done);
    const header = 'recipient_name,program_title,issue_date\n';
    req.write(header + 'Ada,Engines,2026-05-01\n'.repeat(Math.floor((1024 - header.length) / 22)));
  });
}

/** The bystander's pace of issues in phase a. */
const BYSTANDER_ISSUE_EVERY_MS = 200;

async function uploadsPhase(system: RunningSystem, accounts: Account[], bystander: { auth: string }, certificatePid: number): Promise<PhaseResult> {
  let n = 0;
  // Five issues a second at most, as a busy person or back end would (within DASHBOARD_RATE_LIMIT_PER_ACCOUNT_PER_MINUTE).
  const issue = async (meter: Meter, until: number) => {
    while (Date.now() < until) {
      const next = Date.now() + BYSTANDER_ISSUE_EVERY_MS;
      await meter.time(
        () =>
          callJson(`${system.gateway}/dashboard/api/certificate/certificates`, 'POST', bystander.auth, { recipient_name: `Bystander ${n++}`, program_title: 'Fair share', issue_date: '2026-05-01' }, { origin: system.gateway }, 10000),
        (a) => a.status === 201,
      );
      await sleep(Math.max(0, next - Date.now()));
    }
  };
  const quiet = await quietly(certificatePid, issue);
  const end = Date.now() + PHASE_MS;
  const open = new Set<ClientRequest>();
  const flood: number[] = [];
  const loops = accounts.flatMap((account) =>
    Array.from({ length: UPLOADS_PER_ACCOUNT }, async () => {
      while (Date.now() < end) {
        const status = await stalledUpload(system, account.organizations[0]!, open);
        flood.push(status);
        if (status !== 408 && status !== 0) await sleep(200); // refused at once (429/503): ask again shortly
      }
    }),
  );
  await sleep(1500); // the flood is in flight
  const rss = rssSampler(certificatePid);
  const meter = new Meter();
  await issue(meter, end);
  for (const req of open) req.destroy();
  await Promise.all(loops);
  return {
    phase: 'a. uploads',
    flood: `${flood.length} uploads (${summarize(flood)})`,
    bystander: meter,
    peakRssMb: rss.stop(),
    quiet,
    extra: [],
    notes: [`bystander: ${summarize(meter.statuses)}`],
  };
}

// ------------------------------------------------------------------------------------ b. template uploads and previews

async function previewsPhase(system: RunningSystem, accounts: Account[], bystander: { email: string }, certificatePid: number): Promise<PhaseResult> {
  const png = flatPng(4000, 4000, '#F5F0E1');
  const body = JSON.stringify({
    name: 'Drill: three 16-megapixel images',
    text_blocks: [{ text: '{{recipient_name}}', x: 0.1, y: 0.4, width: 0.8, font_size: 32, bold: true }],
    background_image: { data: png },
    logo: { data: png },
    signature_image: { data: png },
  });
  console.log(`    preview body: ${(body.length / 1024).toFixed(0)} kB (three 4000 × 4000 PNGs)`);
  const signIns = async (meter: Meter, until: number) => {
    while (Date.now() < until) {
      await meter.time(
        () => callJson(`${system.gateway}/dashboard/api/auth/sessions`, 'POST', undefined, { email: bystander.email, password: PASSWORD }, { origin: system.gateway }, 10000),
        (a) => a.status === 200,
      );
    }
  };
  const quiet = await quietly(certificatePid, signIns);
  const end = Date.now() + PHASE_MS;
  const rss = rssSampler(certificatePid);
  const flood: number[] = [];
  const loops = Array.from({ length: 20 }, async (_, i) => {
    const account = accounts[i % accounts.length]!;
    const auth = account.organizations[Math.floor(i / accounts.length) % account.organizations.length]!;
    while (Date.now() < end) {
      const status = await postPreview(system, auth, body, 30000);
      flood.push(status);
      // Refused at once (429): asked again 200 ms later, as in phase a. The flood's own client shares the machine's two
      // cores; sending 276 kB again the instant it is told no would measure that client, not the service.
      if (status === 429) await sleep(200);
    }
  });
  const meter = new Meter();
  await signIns(meter, end);
  await Promise.all(loops);
  return {
    phase: 'b. template previews',
    flood: `${flood.length} previews (${summarize(flood)})`,
    bystander: meter,
    peakRssMb: rss.stop(),
    quiet,
    extra: [],
    notes: [`bystander sign-ins: ${summarize(meter.statuses)}`],
  };
}

// ---------------------------------------------------------------------------------- c. previews vs first documents

async function documentsPhase(system: RunningSystem, accounts: Account[], bystander: { auth: string }, certificatePid: number): Promise<PhaseResult> {
  // Each preview a different draft (its text), so none is answered from the preview cache: every one is a render.
  const background = flatPng(4000, 4000, '#E1F0F5');
  let drafts = 0;
  const body = () =>
    JSON.stringify({
      name: 'Drill: a 16-megapixel background',
      text_blocks: [{ text: `{{recipient_name}} #${drafts++}`, x: 0.1, y: 0.4, width: 0.8, font_size: 32, bold: true }],
      background_image: { data: background },
    });
  const documents = Number(process.env.DRILL_FAIR_SHARE_DOCUMENTS ?? 5);
  const deadline = Date.now() + 240_000;
  const retryAfters: number[] = [];
  const timesToDocument = { quiet: [] as number[], flood: [] as number[] };
  const outcome = { quiet: { wanted: 0, served: 0, refused: 0 }, flood: { wanted: 0, served: 0, refused: 0 } };
  let n = 0;
  /** Issues certificates one at a time and asks for each one's first public PDF until served (honouring Retry-After). */
  const firstDocuments = (count: number, which: 'quiet' | 'flood') => async (meter: Meter, until: number) => {
    const tally = outcome[which];
    for (let i = 0; i < count && Date.now() < until; i++) {
      const issued = await meter.time(
        () => callJson(`${system.gateway}/dashboard/api/certificate/certificates`, 'POST', bystander.auth, { recipient_name: `First document ${n++}`, program_title: 'Fair share', issue_date: '2026-05-01' }, { origin: system.gateway }, 10000),
        (a) => a.status === 201,
      );
      const code = issued.body.verification_code as string | undefined;
      if (!code) continue;
      tally.wanted++;
      const asked = Date.now();
      while (Date.now() < deadline) {
        const started = performance.now();
        const res = await fetch(`${system.gateway}/credentials/${code}/document.pdf`, { signal: AbortSignal.timeout(30000) }).catch(() => null);
        await res?.arrayBuffer().catch(() => undefined);
        const status = res?.status ?? 0;
        meter.record(status, performance.now() - started, status === 200 || status === 202);
        if (status === 200) {
          tally.served++;
          timesToDocument[which].push(Date.now() - asked);
          break;
        }
        if (status === 503) tally.refused++;
        if (status !== 202 && status !== 503) break;
        const retryAfter = Number(res?.headers.get('retry-after') ?? 1);
        if (which === 'flood') retryAfters.push(retryAfter);
        await sleep(retryAfter * 1000);
      }
    }
  };
  const quiet = await quietly(certificatePid, firstDocuments(3, 'quiet'));
  let flooding = true;
  const rss = rssSampler(certificatePid);
  const flood: number[] = [];
  // Every organization keeps two previews in flight (its render budget), each a new draft, asking again 250 ms after
  // anything but a 200 (a 202 leaves its render queued; a newer draft replaces the oldest of the organization's two).
  const loops = accounts.flatMap((account) =>
    account.organizations.flatMap((auth) =>
      [0, 1].map(async () => {
        while (flooding && Date.now() < deadline) {
          const status = await postPreview(system, auth, body(), 120000);
          flood.push(status);
          if (status !== 200) await sleep(250);
        }
      }),
    ),
  );
  await sleep(2000); // the render queue fills
  const meter = new Meter();
  await firstDocuments(documents, 'flood')(meter, deadline);
  flooding = false;
  await Promise.all(loops);
  const { wanted, served, refused } = outcome.flood;
  const seconds = (ms: number[]) => `p50 ${(percentile(ms, 50) / 1000).toFixed(1)} s, max ${(Math.max(0, ...ms) / 1000).toFixed(1)} s`;
  return {
    phase: 'c. previews vs first documents',
    flood: `${flood.length} previews (${summarize(flood)})`,
    bystander: meter,
    peakRssMb: rss.stop(),
    quiet,
    extra: [{ what: `${wanted - served} of ${wanted} first documents not served`, ok: served === wanted && wanted > 0 }],
    notes: [
      `bystander: ${summarize(meter.statuses)}; first documents ${served}/${wanted} served, ${refused}× 503; time to document ${seconds(timesToDocument.flood)} (quiet: ${outcome.quiet.served}/${outcome.quiet.wanted}, ${outcome.quiet.refused}× 503, ${seconds(timesToDocument.quiet)}); Retry-After under flood ${retryAfters.join(', ') || 'none'} s`,
    ],
  };
}

// ----------------------------------------------------------------------------------------------------------- d. streams

interface Partner {
  auth: string;
  org: string;
}

/** An organization with a test-mode mobility key (every scope), made with an admin token as lib.ts does. */
async function testPartner(system: RunningSystem, label: string): Promise<Partner> {
  const org = `${label}_${suffix()}`;
  const key = await must(`${system.mobility}/admin/v1/api-keys`, 'POST', adminAuth(org), { name: `${label} key`, scopes: MOBILITY_SCOPES, mode: 'test' });
  return { auth: `Bearer ${key.token as string}`, org };
}

async function testRide(system: RunningSystem, partner: Partner): Promise<string> {
  const ride = await callJson(`${system.gateway}/api/v1/rides`, 'POST', partner.auth, rideBody(randomCentre()), { 'idempotency-key': `drill-${suffix()}` });
  if (ride.status !== 201) throw new Error(`test ride answered ${ride.status}: ${JSON.stringify(ride.body)}`);
  return ride.body.id as string;
}

/** Opens a job's event stream: its status and, when 200, whether a `status` event came; `close` ends it. */
async function openStream(url: string, auth: string, timeoutMs = 10000): Promise<{ status: number; event: boolean; close(): void }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const close = () => controller.abort();
  try {
    const res = await fetch(url, { headers: { authorization: auth, accept: 'text/event-stream' }, signal: controller.signal });
    if (res.status !== 200 || !res.body) {
      const text = await res.text().catch(() => '');
      if (res.status !== 429) console.log(`    (stream answered ${res.status}: ${text.slice(0, 300)})`);
      return { status: res.status, event: false, close };
    }
    const reader = res.body.getReader();
    let text = '';
    while (!text.includes('event: status')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    // Held open (the flood) or closed by the caller; later bytes are drained and dropped.
    void (async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        // aborted
      }
    })();
    return { status: 200, event: text.includes('event: status'), close };
  } catch {
    return { status: 0, event: false, close };
  } finally {
    clearTimeout(timer);
  }
}

async function streamsPhase(system: RunningSystem, flooders: Partner[], bystander: Partner): Promise<PhaseResult> {
  const end = Date.now() + Math.min(PHASE_MS, 20_000);
  const rides = new Map<string, string>();
  for (const p of [...flooders, bystander]) rides.set(p.org, await testRide(system, p));
  const held: Array<() => void> = [];
  const flood: number[] = [];
  let opened = 0;
  // Each organization opens streams until refused, and keeps asking (every 250 ms after a refusal) all phase long.
  const loops = flooders.map(async (p) => {
    const url = `${system.gateway}/api/v1/rides/${rides.get(p.org)!}/stream`;
    for (let attempts = 0; Date.now() < end && attempts < 2000; attempts++) {
      const stream = await openStream(url, p.auth);
      flood.push(stream.status);
      if (stream.status === 200) {
        opened++;
        held.push(stream.close);
      } else {
        stream.close();
        await sleep(250);
      }
    }
  });
  await sleep(3000); // the process is full
  const meter = new Meter();
  const url = `${system.gateway}/api/v1/rides/${rides.get(bystander.org)!}/stream`;
  const openAtStart = opened;
  while (Date.now() < end) {
    const started = performance.now();
    const stream = await openStream(url, bystander.auth, 5000);
    meter.record(stream.status, performance.now() - started, stream.status === 200 && stream.event);
    stream.close();
    await sleep(100);
  }
  await Promise.all(loops);
  for (const close of held) close();
  // A 5xx is a defect whatever the flood: show what the services logged about it.
  if ([...flood, ...meter.statuses].some((status) => status >= 500)) {
    const lines = system.output().split('\n');
    const errors = lines.flatMap((line, i) => (/"level":50|\bERROR\b|\b500\b/.test(line) ? lines.slice(i, i + 12) : []));
    for (const line of errors.slice(0, 80)) console.log(`    ${line.slice(0, 1200)}`);
  }
  return {
    phase: 'd. streams',
    flood: `${flood.length} stream opens (${summarize(flood)}); ${opened} held`,
    bystander: meter,
    peakRssMb: null,
    extra: [{ what: `the flood held ${openAtStart} streams (< ${STREAM_MAX_PER_PROCESS}: the process was not full)`, ok: openAtStart >= STREAM_MAX_PER_PROCESS }],
    notes: [`bystander first streams: ${summarize(meter.statuses)}; flood held ${openAtStart} streams when the bystander began (process cap ${STREAM_MAX_PER_PROCESS})`],
  };
}

// ----------------------------------------------------------------------------------------------------------- e. recover

function posts(receiver: Receiver): number {
  return [...receiver.requests.values()].reduce((a, b) => a + b, 0);
}

async function completedTestRide(system: RunningSystem, partner: Partner, meter?: Meter): Promise<boolean> {
  const call = (url: string, body: unknown, headers: Record<string, string> = {}) => () => callJson(url, 'POST', partner.auth, body, headers, 10000);
  const create = call(`${system.gateway}/api/v1/rides`, rideBody(randomCentre()), { 'idempotency-key': `drill-${suffix()}` });
  const ride = meter ? await meter.time(create, (a) => a.status === 201) : await create();
  if (ride.status !== 201) return false;
  const advance = call(`${system.gateway}/api/v1/sandbox/rides/${ride.body.id as string}/advance`, { to: 'completed' });
  const moved = meter ? await meter.time(advance, (a) => a.status === 200) : await advance();
  return moved.status === 200;
}

async function recoverPhase(system: RunningSystem, flooders: Partner[], bystander: Partner): Promise<PhaseResult> {
  const floodReceiver = await startReceiver();
  const bystanderReceiver = await startReceiver();
  try {
    // History to replay: each flooding organization has a completed test ride before any of its endpoints.
    for (const p of flooders) await completedTestRide(system, p);
    const endpoint = await must(`${system.gateway}/api/v1/webhooks`, 'POST', bystander.auth, { url: bystanderReceiver.url, description: 'bystander' });
    const since = new Date(Date.now() - 1000).toISOString();
    const meter = new Meter();
    const end = Date.now() + 10_000;
    const flood: number[] = [];
    let recovers = 0;
    const loops = flooders.map(async (p) => {
      for (let i = 0; Date.now() < end && i < 500; i++) {
        const made = await callJson(`${system.gateway}/api/v1/webhooks`, 'POST', p.auth, { url: `${floodReceiver.url}?n=${i}`, description: `flood ${i}` });
        flood.push(made.status);
        if (made.status !== 201 && i === 0) console.log(`    (endpoint creation answered ${made.status}: ${JSON.stringify(made.body).slice(0, 200)})`);
        const id = made.status === 201 ? (made.body.id as string) : undefined;
        if (id) {
          const recovered = await callJson(`${system.gateway}/api/v1/webhooks/${id}/recover`, 'POST', p.auth, { since: '2020-01-01T00:00:00Z', include_succeeded: true });
          flood.push(recovered.status);
          recovers++;
        } else {
          await sleep(100);
        }
      }
    });
    // The bystander works: test rides driven to completed (their events go to its endpoint), then its own recover.
    let bystanderRides = 0;
    while (Date.now() < end - 5000) if (await completedTestRide(system, bystander, meter)) bystanderRides++;
    const recovered = await meter.time(
      () => callJson(`${system.gateway}/api/v1/webhooks/${endpoint.id as string}/recover`, 'POST', bystander.auth, { since, include_succeeded: true }, {}, 10000),
      (a) => a.status === 202,
    );
    while (Date.now() < end) if (await completedTestRide(system, bystander, meter)) bystanderRides++;
    await Promise.all(loops);
    // Every event the bystander made arrives, and so does every message its recover queued.
    const queued = Number(recovered.body.queued ?? 0);
    const events = Number(
      (await query<{ n: string }>(system, "select count(*) as n from mobility.outbox_events o join mobility.webhook_endpoints e on e.partner_id = o.partner_id where e.id = $1 and o.created_at >= e.created_at", [endpoint.id]).catch(() => [{ n: '-1' }]))[0]!.n,
    );
    const deadline = Date.now() + 60_000;
    const wanted = () => bystanderReceiver.acknowledged.size >= events && posts(bystanderReceiver) >= events + queued;
    while (!wanted() && Date.now() < deadline) await sleep(250);
    await sleep(2000); // anything more the flood's recovers send
    const arrived = wanted();
    meter.record(arrived ? 200 : 0, 0, arrived);
    const floodPosts = posts(floodReceiver);
    return {
      phase: 'e. recover',
      flood: `${flood.length} endpoint creations and recovers (${summarize(flood)}); ${floodPosts} webhook POSTs received`,
      bystander: meter,
      peakRssMb: null,
      extra: [
        { what: `flood webhook POSTs ${floodPosts} > ${FLOOD_DELIVERY_BOUND}`, ok: floodPosts <= FLOOD_DELIVERY_BOUND },
        { what: `bystander recover answered ${recovered.status}`, ok: recovered.status === 202 },
        { what: `bystander deliveries missing (${posts(bystanderReceiver)} POSTs, ${bystanderReceiver.acknowledged.size} events acknowledged of ${events}, ${queued} replays queued)`, ok: arrived },
      ],
      notes: [
        `flood: ${recovers} recovers called; receiver got ${floodPosts} POSTs (bound ${FLOOD_DELIVERY_BOUND})`,
        `bystander: ${bystanderRides} test rides completed, recover ${recovered.status} (queued ${queued}); its receiver got ${posts(bystanderReceiver)} POSTs for ${events} events; requests ${summarize(meter.statuses)} (the last counted is "all deliveries arrived")`,
      ],
    };
  } finally {
    await floodReceiver.close();
    await bystanderReceiver.close();
  }
}

// ------------------------------------------------------------------------------------------------------------- the drill

export async function fairShareDrill(basePort: number): Promise<DrillResult> {
  const phases = (process.env.DRILL_FAIR_SHARE_PHASES ?? 'a,b,c,d,e').split(',').map((p) => p.trim().toLowerCase());
  const system = await startSystem('drill_fair', basePort, {
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
    MAX_IN_FLIGHT_PER_CLIENT: '5000',
    SIGN_UP_MAX_PER_ADDRESS: '1000',
    STREAM_MAX_PER_PROCESS: String(STREAM_MAX_PER_PROCESS),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const results: PhaseResult[] = [];
  const limitMb = k8sMemoryLimitMb();
  try {
    const certificatePid = childPid(system, 'services/certificate');
    const gatewayPid = childPid(system, 'gateway');
    const mobilityPid = childPid(system, 'services/mobility');
    const dashboardPhases = phases.some((p) => ['a', 'b', 'c'].includes(p));
    const accounts: Account[] = [];
    let bystander = { auth: '', email: '' };
    if (dashboardPhases) {
      bystander = await bystanderAccount(system);
      for (let i = 0; i < ACCOUNTS; i++) accounts.push(await freeAccount(system, `flood${i}`));
      console.log(`  ${ACCOUNTS} free accounts signed up (${accounts.map((a) => a.organizations.length).join(', ')} organizations), bystander ${bystander.email}`);
      // Warm up: the first requests load code and pools.
      for (let i = 0; i < 5; i++) await callJson(`${system.gateway}/dashboard/api/certificate/certificates?limit=5`, 'GET', bystander.auth, undefined, { origin: system.gateway });
    }
    const mobilityPhases = phases.some((p) => ['d', 'e'].includes(p));
    const flooders: Partner[] = [];
    let bystanderPartner: Partner | undefined;
    if (mobilityPhases) {
      for (let i = 0; i < ACCOUNTS * ORGANIZATIONS_PER_ACCOUNT; i++) flooders.push(await testPartner(system, `flood${Math.floor(i / ORGANIZATIONS_PER_ACCOUNT)}_org${i % ORGANIZATIONS_PER_ACCOUNT}`));
      bystanderPartner = await testPartner(system, 'bystander');
    }
    const run = async (name: string, phase: () => Promise<PhaseResult>) => {
      if (!phases.includes(name)) return;
      const startedAt = new Date().toISOString().slice(0, 19) + 'Z';
      const cpu = { at: Date.now(), certificate: cpuSeconds(certificatePid), gateway: cpuSeconds(gatewayPid), mobility: cpuSeconds(mobilityPid) };
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      console.log(`\n  -- phase ${name} (${startedAt}, load ${load})`);
      const result = await phase();
      const wall = (Date.now() - cpu.at) / 1000;
      const share = (pid: number, before: number) => `${((100 * (cpuSeconds(pid) - before)) / wall).toFixed(0)} %`;
      result.notes.push(`CPU over the phase (quiet part included, ${wall.toFixed(0)} s): certificate ${share(certificatePid, cpu.certificate)}, gateway ${share(gatewayPid, cpu.gateway)}, mobility ${share(mobilityPid, cpu.mobility)} of one core`);
      result.notes.unshift(`${startedAt}, load average ${load}`);
      for (const note of result.notes) console.log(`    ${note}`);
      console.log(`    flood: ${result.flood}`);
      results.push(result);
      await sleep(2000); // what the flood left in flight ends before the next phase
    };
    await run('a', () => uploadsPhase(system, accounts, bystander, certificatePid));
    await run('b', () => previewsPhase(system, accounts, bystander, certificatePid));
    await run('c', () => documentsPhase(system, accounts, bystander, certificatePid));
    await run('d', () => streamsPhase(system, flooders, bystanderPartner!));
    await run('e', () => recoverPhase(system, flooders, bystanderPartner!));
  } finally {
    await system.stop();
  }

  console.log(`\n| phase | when (UTC), load | flood sent | bystander requests | success % | p50 ms | p99 ms | certificate peak RSS MB | quiet (no flood): requests, success %, p50/p99 ms, RSS start→peak MB | verdict |`);
  console.log('|---|---|---|---:|---:|---:|---:|---:|---|---|');
  let failed = 0;
  for (const r of results) {
    const v = verdict(r, limitMb);
    if (!v.ok) failed++;
    const m = r.bystander;
    console.log(
      `| ${r.phase} | ${r.notes[0]} | ${r.flood} | ${m.count} | ${m.successPercent.toFixed(1)} | ${percentile(m.latencies, 50).toFixed(0)} | ${percentile(m.latencies, 99).toFixed(0)} | ${r.peakRssMb === null ? '-' : r.peakRssMb.toFixed(0)} | ${quietText(r)} | ${v.ok ? 'OK' : `FAIL: ${v.why.join('; ')}`} |`,
    );
  }
  return {
    name: `fair share: ${ACCOUNTS} free accounts flood, a bystander works (phases ${phases.join(', ')})`,
    sent: results.map((r) => `${r.phase}: ${r.flood}`).join('; '),
    arrived: results.map((r) => `${r.phase}: bystander ${r.bystander.successPercent.toFixed(1)} % of ${r.bystander.count}, p99 ${percentile(r.bystander.latencies, 99).toFixed(0)} ms`).join('; '),
    // A phase whose verdict failed counts as one lost.
    lost: failed,
    doubleApplied: 0,
  };
}
