/**
 * A `pnpm start` killed outright (`kill -9`) leaves its services, worker, gateway and embedded Postgres and Redis running.
 * In a checkout of its own (see copyCheckout) with nothing configured: `pnpm platform status` shows what runs and where,
 * the next start stops exactly those processes and comes up, the CLI refuses (one line) when the stores running.json
 * names are gone instead of opening the machine's Postgres, and `reset` removes the checkout's data only when told to.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { listen } from '@platform/test-kit';
import { copyCheckout, type CheckoutCopy } from './helpers/checkout-copy';
import { platform } from './helpers/platform-cli';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';

jest.setTimeout(250000);

interface Recorded {
  pid: number;
  processes: { name: string; pid: number }[];
}

async function closedPort(): Promise<number> {
  const probe = await listen(() => undefined);
  await probe.close();
  return probe.port;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function untilGone(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 30000;
  while (pids.some(running) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(running);
}

const unconfigured = { DATABASE_URL: undefined, CERTIFICATE_DATABASE_URL: undefined, MOBILITY_DATABASE_URL: undefined, REDIS_URL: undefined, PLATFORM_EMBEDDED_POSTGRES_DIR: undefined };

describe('pnpm start killed with kill -9, in a checkout with embedded Postgres and Redis', () => {
  let checkout: CheckoutCopy;
  let ports: Ports;
  let postgresPort: number;
  let redisPort: number;
  let started: Started;
  const seen = new Set<number>();
  const runningFile = () => path.join(checkout.root, '.data', 'running.json');
  const recorded = (): Recorded => {
    const record = JSON.parse(readFileSync(runningFile(), 'utf8')) as Recorded;
    for (const p of [record.pid, ...record.processes.map((p) => p.pid)]) seen.add(p);
    return record;
  };
  const startEnv = () => ({
    ...ports,
    ...unconfigured,
    PLATFORM_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`,
    PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  });
  const cli = (args: string[]) => platform(args, unconfigured, checkout.root);

  beforeAll(async () => {
    ports = await freePorts();
    postgresPort = await closedPort();
    redisPort = await closedPort();
    checkout = copyCheckout(0o755);
    started = pnpmStart(startEnv(), [], checkout.root);
    await waitForOutput(started, 'Partner platform is up', 240000);
  });

  afterAll(async () => {
    // After a failed test: whatever of the two starts still runs (pnpm's group, then each recorded process).
    for (const pid of [-started.pnpm.pid!, ...seen]) if (running(pid)) process.kill(pid, 'SIGKILL');
    await untilAllStopped(ports);
    checkout.remove();
  }, 60000);

  it('status lists every process with its PID, the URLs and the data folder, and exits 0', async () => {
    const { pid, processes } = recorded();
    expect(processes.map((p) => p.name).sort()).toEqual(['certificate', 'embedded Postgres', 'gateway', 'mobility', 'redis-server', 'worker']);
    const status = await cli(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Partner platform in ${checkout.root}: pnpm start of this checkout runs`);
    expect(status.stdout).toMatch(new RegExp(`^ {2}pnpm start +pid ${pid} +alive`, 'm'));
    for (const p of processes) expect(status.stdout).toMatch(new RegExp(`^ {2}${p.name} +pid ${p.pid} +alive$`, 'm'));
    const gateway = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
    expect(status.stdout).toMatch(new RegExp(`^ {2}gateway +${gateway}$`, 'm'));
    expect(status.stdout).toMatch(new RegExp(`^ {2}dashboard +${gateway}/dashboard$`, 'm'));
    expect(status.stdout).toMatch(new RegExp(`^ {2}API reference +${gateway}/docs$`, 'm'));
    expect(status.stdout).toMatch(/^ {2}mail inbox +http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(status.stdout).toMatch(/^ +\.data\/postgres +\(embedded Postgres cluster, \d+ MB\)$/m);
    expect(status.stdout).toMatch(/^ {2}versions +Node v\d+\.\d+\.\d+, platform \d+\.\d+\.\d+, Postgres \d+/m);
    const json = await cli(['status', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ state: 'running', urls: { gateway, dashboard: `${gateway}/dashboard` } });
  });

  it('reset refuses while the platform runs, naming it, and removes nothing', async () => {
    const { pid } = recorded();
    const reset = await cli(['reset', '--yes']);
    expect(reset).toMatchObject({ code: 1, stdout: '' });
    expect(reset.stderr.trim().split('\n')).toEqual([`pnpm platform reset: the platform is running (pnpm start, pid ${pid}): stop it first (Ctrl-C in its terminal, or \`kill ${pid}\`).`]);
    expect(existsSync(path.join(checkout.root, '.data', 'postgres', 'PG_VERSION'))).toBe(true);
  });

  it('after kill -9 of the starter, the next pnpm start stops what it left (and only that) and comes up', async () => {
    const first = recorded();
    process.kill(first.pid, 'SIGKILL');
    await started.exited;
    const leftovers = first.processes.map((p) => p.pid);
    expect(leftovers.filter(running)).toEqual(leftovers); // all six outlive their starter

    const status = await cli(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`pnpm start was killed; 6 of its processes still run: the next \`pnpm start\` stops them (or \`kill ${leftovers.join(' ')}\`)`);

    started = pnpmStart(startEnv(), [], checkout.root);
    await waitForOutput(started, 'Partner platform is up', 240000);
    const output = started.output();
    expect(output).toContain(`A pnpm start of this checkout (pid ${first.pid}) was killed or crashed and left 6 processes running: `);
    for (const p of first.processes) expect(output).toContain(`${p.name} (pid ${p.pid})`);
    expect(output).toContain('Stopped them; starting afresh.');
    expect(output).not.toContain('already in use by another program');
    expect(leftovers.filter(running)).toEqual([]);
    const health = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/healthz`);
    expect(health.status).toBe(200);
    expect(recorded().pid).not.toBe(first.pid);
  });

  it('when the stores running.json names are gone, the CLI says so in one line and exits 1 (no other Postgres is opened)', async () => {
    const second = recorded();
    process.kill(second.pid, 'SIGKILL');
    await started.exited;
    for (const p of second.processes) process.kill(p.pid, 'SIGKILL');
    expect(await untilGone(second.processes.map((p) => p.pid))).toEqual([]);
    const token = await cli(['token', 'admin', '--org', 'org_nowhere']);
    expect(token).toMatchObject({ code: 1, stdout: '' });
    expect(token.stderr.trim().split('\n')).toEqual([
      `pnpm platform: .data/running.json names Postgres at postgres://postgres@127.0.0.1:${postgresPort}/partner_platform, which does not answer (the pnpm start that wrote it, pid ${second.pid}, is gone): run \`pnpm start\` (it stops what a killed start left running and starts afresh), or set DATABASE_URL to choose a database.`,
    ]);
  });

  it('reset without a terminal and without --yes refuses in one line and changes nothing', async () => {
    const before = readFileSync(runningFile(), 'utf8');
    const reset = await cli(['reset']);
    expect(reset).toMatchObject({ code: 1, stdout: '' });
    expect(reset.stderr.trim().split('\n')).toEqual([
      `pnpm platform reset: no terminal to confirm on; run \`pnpm platform reset --yes\` to remove 1 embedded Postgres cluster(s), 0 database(s) and .data of ${checkout.root}.`,
    ]);
    expect(existsSync(path.join(checkout.root, '.data', 'postgres', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(runningFile(), 'utf8')).toBe(before);
  });

  it('reset --yes removes the embedded cluster and .data; status then says not running and exits 0', async () => {
    const reset = await cli(['reset', '--yes']);
    expect(reset.code).toBe(0);
    expect(reset.stdout.trim().split('\n')).toEqual([
      'Removed .data/postgres (embedded Postgres cluster)',
      'Removed .data',
      'Reset done: the next `pnpm start` begins with empty databases.',
    ]);
    expect(existsSync(path.join(checkout.root, '.data'))).toBe(false);
    const status = await cli(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Partner platform in ${checkout.root}: not running`);
    expect(status.stdout).toContain('.data (not created yet)');
  });
});
