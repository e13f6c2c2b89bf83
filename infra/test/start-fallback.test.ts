import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { signAdminToken } from '@platform/service-kit/auth';
import { createRedis } from '@platform/service-kit/redis';
import { createRunDatabase, dropRunDatabase, listen, newRedisPrefix, clearRedisPrefix } from '@platform/test-kit';
import { copyCheckout, type CheckoutCopy } from './helpers/checkout-copy';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';
import { withoutSourceCondition } from '@platform/service-kit/compiled-env';

/** A port nothing listens on (bound, then closed again). */
async function closedPort(): Promise<number> {
  const probe = await listen(() => undefined);
  await probe.close();
  return probe.port;
}

/** Whether anything accepts a TCP connection on 127.0.0.1:`port` (Postgres and Redis do not speak HTTP). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function untilClosed(ports: number[]): Promise<number[]> {
  const deadline = Date.now() + 30000;
  for (;;) {
    const open: number[] = [];
    for (const port of ports) if (await accepts(port)) open.push(port);
    if (open.length === 0 || Date.now() > deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const JWT_SECRET = 'start-fallback-test-secret-of-enough-length';
const unconfigured = { DATABASE_URL: undefined, CERTIFICATE_DATABASE_URL: undefined, MOBILITY_DATABASE_URL: undefined, REDIS_URL: undefined };

/** Stops what a failed start may have left running: the cluster's postmaster and a redis-server on `redisPort`. */
async function stopLeftovers(dataDir: string | undefined, postgresPort: number, redisPort: number): Promise<void> {
  const pidFile = dataDir ? path.join(dataDir, 'postmaster.pid') : '';
  const pid = pidFile && existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
  if (pid > 0 && (await accepts(postgresPort))) process.kill(pid, 'SIGINT');
  if (await accepts(redisPort)) {
    const redis = createRedis(`redis://127.0.0.1:${redisPort}`, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    await redis.call('shutdown', 'nosave').catch(() => undefined);
    redis.disconnect();
  }
  await untilClosed([postgresPort, redisPort]);
}

/** A PID no process has: that of a process that has just exited. */
function deadPid(): number {
  const child = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

const asRoot = process.getuid?.() === 0;
const postgresUid = () => Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());

// The real default path: a checkout (see copyCheckout) whose `.data` does not exist yet, under a mode-700 folder (a clone
// in /root or in `mktemp -d`), started with `pnpm start` and nothing configured. As root the server runs as `postgres`,
// which cannot enter that folder: the cluster goes to /var/lib/partner-platform, one per checkout, reused by the next start.
describe('pnpm start with nothing at the default Postgres and Redis addresses, neither configured, in a checkout under a mode-700 folder', () => {
  let started: Started;
  let ports: Ports;
  let postgresPort: number;
  let redisPort: number;
  let checkout: CheckoutCopy;
  let dataDir: string | undefined;
  let token: string;
  const redisPrefix = newRedisPrefix('fallback');
  const startEnv = () => ({
    ...ports,
    ...unconfigured,
    PLATFORM_EMBEDDED_POSTGRES_DIR: undefined,
    PLATFORM_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`,
    PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_PREFIX: redisPrefix,
    JWT_SECRET,
  });

  beforeAll(async () => {
    ports = await freePorts();
    postgresPort = await closedPort();
    redisPort = await closedPort();
    checkout = copyCheckout(0o700);
    started = pnpmStart(startEnv(), [], checkout.root);
    await waitForOutput(started, 'Partner platform is up', 240000);
    dataDir = /data in (\/\S+?)[:)]/.exec(started.output())?.[1] ?? path.join(checkout.root, '.data', 'postgres');
  }, 250000);

  afterAll(async () => {
    if (started.pnpm.exitCode === null) process.kill(-started.pnpm.pid!, 'SIGKILL');
    await untilAllStopped(ports);
    // After a failed test the starter may not have stopped its own servers: stop them here rather than leave them running.
    await stopLeftovers(dataDir, postgresPort, redisPort);
    checkout.remove();
    if (dataDir?.startsWith('/var/lib/partner-platform/postgres-')) rmSync(dataDir, { recursive: true, force: true });
  }, 60000);

  it('says it started an embedded Postgres, where its data is and why, and a redis-server; every process is ready', async () => {
    const output = started.output();
    expect(output).toContain(`started an embedded Postgres at postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`);
    expect(output).toContain(`started /usr/bin/redis-server at redis://127.0.0.1:${redisPort}`);
    if (asRoot) {
      expect(output).toMatch(new RegExp(`\\(data in /var/lib/partner-platform/postgres-[0-9a-f]{12}: the postgres user cannot enter ${checkout.parent}\\)`));
      expect(output).toMatch(/^ {2}postgres {5}\S+ {3}\(embedded, data in \/var\/lib\/partner-platform\/postgres-[0-9a-f]{12}, stopped with the rest\)$/m);
      const cluster = statSync(dataDir!);
      expect({ owner: cluster.uid, mode: cluster.mode & 0o777 }).toEqual({ owner: postgresUid(), mode: 0o700 });
      expect(existsSync(path.join(checkout.root, '.data', 'postgres'))).toBe(false);
    } else {
      expect(output).toContain('(data in .data/postgres)');
    }
    expect(await accepts(postgresPort)).toBe(true);
    expect(await accepts(redisPort)).toBe(true);
    for (const port of [ports.CERTIFICATE_PORT, ports.MOBILITY_PORT]) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
    }
    const gateway = await fetch(`http://127.0.0.1:${ports.GATEWAY_METRICS_PORT}/readyz`);
    expect(await gateway.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
  });

  it('records where it runs in the checkout\'s .data/running.json', () => {
    const state = JSON.parse(readFileSync(path.join(checkout.root, '.data', 'running.json'), 'utf8')) as Record<string, unknown>;
    expect(state).toEqual({
      pid: expect.any(Number),
      startTicks: expect.stringMatching(/^\d+$/),
      phase: 'up',
      startedAt: expect.any(String),
      processes: ['embedded Postgres', 'redis-server', 'certificate', 'mobility', 'worker', 'gateway'].map((name) => ({ name, pid: expect.any(Number), startTicks: expect.stringMatching(/^\d+$/) })),
      postgresDataDir: dataDir,
      embedded: { postgres: true, redis: true },
      databaseUrl: `postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`,
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      redisPrefix,
      gatewayUrl: `http://127.0.0.1:${ports.GATEWAY_PORT}`,
      ports: { gateway: ports.GATEWAY_PORT, certificate: ports.CERTIFICATE_PORT, mobility: ports.MOBILITY_PORT, gatewayMetrics: ports.GATEWAY_METRICS_PORT },
      // The local mail catcher it runs (no SMTP_URL here), so `pnpm platform org create` mails to the same inbox.
      mail: { smtpUrl: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+$/), inboxUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/) },
    });
  });

  it('serves database-backed requests: a key created through the admin API reads its credits through the gateway', async () => {
    const admin = signAdminToken({ sub: 'user_fallback', org: 'org_fallback', org_name: 'Fallback Org', role: 'owner' }, JWT_SECRET);
    const created = await fetch(`http://127.0.0.1:${ports.CERTIFICATE_PORT}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fallback' }),
    });
    expect(created.status).toBe(201);
    token = ((await created.json()) as { token: string }).token;
    const credits = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(credits.status).toBe(200);
    expect(await credits.json()).toMatchObject({ balance: 10, plan: 'free' });
    const missing = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1/verify/NO-SUCH-CODE`, { headers: { authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ valid: false, code: 'not_found' });
  });

  it('on SIGTERM stops every process, the embedded Postgres and the redis-server included, and removes .data/running.json', async () => {
    started.pnpm.kill('SIGTERM');
    await started.exited;
    expect(await untilAllStopped(ports)).toEqual([]);
    expect(await untilClosed([postgresPort, redisPort])).toEqual([]);
    expect(existsSync(path.join(checkout.root, '.data', 'running.json'))).toBe(false);
  });

  it('a second start reuses the same cluster (the key still works), removing a stale postmaster.pid with one line', async () => {
    // What a Postgres killed outright leaves behind: its pid file, naming a process that no longer exists.
    const pidFile = path.join(dataDir!, 'postmaster.pid');
    const pid = deadPid();
    writeFileSync(pidFile, `${pid}\n${dataDir}\n1700000000\n${postgresPort}\n\n127.0.0.1\n`);
    if (asRoot) chownSync(pidFile, postgresUid(), postgresUid());
    started = pnpmStart(startEnv(), [], checkout.root);
    await waitForOutput(started, 'Partner platform is up', 240000);
    const output = started.output();
    expect(output).toContain(`Removed ${pidFile}, left by an embedded Postgres that was killed (PID ${pid} is not a running postgres).`);
    expect(output).toContain(`(data in ${asRoot ? dataDir : '.data/postgres'}`);
    const credits = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(credits.status).toBe(200);
    started.pnpm.kill('SIGTERM');
    await started.exited;
    expect(await untilClosed([postgresPort, redisPort])).toEqual([]);
  }, 250000);
});

// A checkout every user can enter (mode 755 up to /): the cluster is the checkout's own `.data/postgres`, created with
// modes that let the `postgres` user reach it when the start runs as root. As root the default address here is on a
// privileged port (1): free, but the `postgres` user may not listen there, so the server must take another port
// rather than shut down with "could not create any TCP/IP sockets".
describe('pnpm start with nothing configured in a checkout under a mode-755 folder', () => {
  it('keeps the cluster in the checkout\'s .data/postgres (as root, on a port the postgres user may listen on)', async () => {
    const ports = await freePorts();
    const defaultPort = asRoot ? 1 : await closedPort();
    let postgresPort = defaultPort;
    const redisPort = await closedPort();
    const checkout = copyCheckout(0o755);
    const dataDir = path.join(checkout.root, '.data', 'postgres');
    const started = pnpmStart(
      { ...ports, ...unconfigured, PLATFORM_EMBEDDED_POSTGRES_DIR: undefined, PLATFORM_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${defaultPort}/partner_platform`, PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_PREFIX: newRedisPrefix('fallback') },
      [],
      checkout.root,
    );
    try {
      await waitForOutput(started, 'Partner platform is up', 240000);
      const embedded = /started an embedded Postgres at postgres:\/\/postgres@127\.0\.0\.1:(\d+)\/partner_platform \(data in \.data\/postgres\)\./.exec(started.output());
      expect(embedded).not.toBeNull();
      postgresPort = Number(embedded![1]);
      if (asRoot) expect(postgresPort).toBeGreaterThanOrEqual(1024);
      else expect(postgresPort).toBe(defaultPort);
      expect(await accepts(postgresPort)).toBe(true);
      expect(started.output()).toMatch(/^ {2}postgres {5}\S+ {3}\(embedded, data in \.data\/postgres, stopped with the rest\)$/m);
      if (asRoot) {
        // The postgres user can pass through .data (its listing stays private: it holds dev-secrets.json).
        expect(statSync(path.join(checkout.root, '.data')).mode & 0o011).toBe(0o011);
        expect(statSync(dataDir).uid).toBe(postgresUid());
      }
      started.pnpm.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      if (started.pnpm.exitCode === null) process.kill(-started.pnpm.pid!, 'SIGKILL');
      await untilAllStopped(ports);
      await stopLeftovers(dataDir, postgresPort, redisPort);
      checkout.remove();
    }
  }, 300000);
});

describe('pnpm start when it must not, or cannot, start its own Postgres or Redis', () => {
  it('a configured DATABASE_URL never falls back: one line naming it, nothing started, exit 1', async () => {
    const ports = await freePorts();
    const port = await closedPort();
    const started = pnpmStart({ ...ports, ...unconfigured, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/partner_platform`, PLATFORM_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/partner_platform` });
    expect(await started.exited).toBe(1);
    const lines = started.output().split('\n').filter((line) => line.startsWith('Postgres') || line.includes('embedded'));
    expect(lines).toEqual([expect.stringContaining(`Postgres is not reachable at postgres://postgres@127.0.0.1:${port}/partner_platform (ECONNREFUSED)`)]);
    expect(started.output()).not.toContain('Partner platform is up');
    expect(await accepts(port)).toBe(false);
    expect(await untilAllStopped(ports)).toEqual([]);
  }, 250000);

  it('a configured REDIS_URL never falls back either', async () => {
    const ports = await freePorts();
    const port = await closedPort();
    const databaseUrl = await createRunDatabase('fallback');
    const redisPrefix = newRedisPrefix('fallback');
    try {
      const started = pnpmStart({ ...ports, DATABASE_URL: databaseUrl, REDIS_URL: `redis://127.0.0.1:${port}`, PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: redisPrefix });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`Redis is not reachable at redis://127.0.0.1:${port} (ECONNREFUSED)`);
      expect(started.output()).not.toContain('started /usr/bin/redis-server');
      expect(started.output()).not.toContain('Partner platform is up');
      expect(await accepts(port)).toBe(false);
      expect(await untilAllStopped(ports)).toEqual([]);
    } finally {
      await dropRunDatabase(databaseUrl);
      await clearRedisPrefix(redisPrefix);
    }
  }, 250000);

  it('with no Redis at the default and no redis-server on PATH, says in one line how to get one and exits 1', async () => {
    const ports = await freePorts();
    const port = await closedPort();
    const databaseUrl = await createRunDatabase('fallback');
    try {
      // The compiled starter run directly (pnpm itself lives on PATH), with a PATH that holds no redis-server.
      const nodeOptions = withoutSourceCondition(process.env.NODE_OPTIONS);
      const result = spawnSync(process.execPath, [path.resolve(__dirname, '../../dist/scripts/start.js')], {
        env: { ...process.env, ...ports, NODE_OPTIONS: nodeOptions, PATH: '/nonexistent', DATABASE_URL: databaseUrl, REDIS_URL: undefined, PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${port}` },
        encoding: 'utf8',
        timeout: 60000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `No Redis answers at redis://127.0.0.1:${port} and redis-server is not on PATH: install your distribution's redis-server package (apt install redis-server, brew install redis) or run \`docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d redis\`, or set REDIS_URL.`,
      ]);
      expect(result.stdout).not.toContain('Partner platform is up');
      expect(await untilAllStopped(ports)).toEqual([]);
    } finally {
      await dropRunDatabase(databaseUrl);
    }
  }, 120000);
});
