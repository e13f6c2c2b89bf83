import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signAdminToken } from '@platform/service-kit/auth';
import { createRedis } from '@platform/service-kit/redis';
import { createRunDatabase, dropRunDatabase, listen, newRedisPrefix, clearRedisPrefix } from '@platform/test-kit';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';

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

describe('pnpm start with nothing at the default Postgres and Redis addresses and neither configured', () => {
  let started: Started;
  let ports: Ports;
  let postgresPort: number;
  let redisPort: number;
  let dataDir: string;
  const redisPrefix = newRedisPrefix('fallback');

  beforeAll(async () => {
    ports = await freePorts();
    postgresPort = await closedPort();
    redisPort = await closedPort();
    // A fresh cluster each run; the embedded Postgres runs as the unprivileged `postgres` user when tests run as root.
    const parent = mkdtempSync(path.join(tmpdir(), 'embedded-pg-'));
    chmodSync(parent, 0o755);
    dataDir = path.join(parent, 'postgres');
    started = pnpmStart({
      ...ports,
      ...unconfigured,
      PLATFORM_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`,
      PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      PLATFORM_EMBEDDED_POSTGRES_DIR: dataDir,
      REDIS_PREFIX: redisPrefix,
      JWT_SECRET,
    });
    await waitForOutput(started, 'Partner platform is up', 240000);
  }, 250000);

  afterAll(async () => {
    if (started.pnpm.exitCode === null) process.kill(-started.pnpm.pid!, 'SIGKILL');
    await untilAllStopped(ports);
    // After a failed test the starter may not have stopped its own servers: stop them here rather than leave them running.
    const pidFile = path.join(dataDir, 'postmaster.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
    if (pid > 0 && (await accepts(postgresPort))) process.kill(pid, 'SIGINT');
    if (await accepts(redisPort)) {
      const redis = createRedis(`redis://127.0.0.1:${redisPort}`, { maxRetriesPerRequest: 0, retryStrategy: () => null });
      await redis.call('shutdown', 'nosave').catch(() => undefined);
      redis.disconnect();
    }
    await untilClosed([postgresPort, redisPort]);
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }, 60000);

  it('says it started an embedded Postgres and a redis-server on the default ports, and every process is ready', async () => {
    const output = started.output();
    expect(output).toContain(`started an embedded Postgres at postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`);
    expect(output).toContain(`started /usr/bin/redis-server at redis://127.0.0.1:${redisPort}`);
    expect(await accepts(postgresPort)).toBe(true);
    expect(await accepts(redisPort)).toBe(true);
    for (const port of [ports.CERTIFICATE_PORT, ports.MOBILITY_PORT]) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
    }
    const gateway = await fetch(`http://127.0.0.1:${ports.GATEWAY_METRICS_PORT}/readyz`);
    expect(await gateway.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
  });

  it('serves database-backed requests: a key created through the admin API reads its credits through the gateway', async () => {
    const admin = signAdminToken({ sub: 'user_fallback', org: 'org_fallback', org_name: 'Fallback Org', role: 'owner' }, JWT_SECRET);
    const created = await fetch(`http://127.0.0.1:${ports.CERTIFICATE_PORT}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fallback' }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const credits = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(credits.status).toBe(200);
    expect(await credits.json()).toMatchObject({ balance: 10, plan: 'free' });
    const missing = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1/verify/NO-SUCH-CODE`, { headers: { authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ valid: false, code: 'not_found' });
  });

  it('on SIGTERM stops every process, the embedded Postgres and the redis-server included', async () => {
    started.pnpm.kill('SIGTERM');
    await started.exited;
    expect(await untilAllStopped(ports)).toEqual([]);
    expect(await untilClosed([postgresPort, redisPort])).toEqual([]);
  });
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
      const nodeOptions = (process.env.NODE_OPTIONS ?? '').replace(/--conditions[= ]source\b/g, '').trim();
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
