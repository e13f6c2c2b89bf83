import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createRunDatabase, dropRunDatabase, listen, newRedisPrefix, redisUrl, clearRedisPrefix } from '@platform/test-kit';
import { createRedis } from '@platform/service-kit/redis';

async function redisKeys(pattern: string): Promise<string[]> {
  const redis = createRedis(redisUrl());
  try {
    return await redis.keys(pattern);
  } finally {
    redis.disconnect();
  }
}

const root = path.resolve(__dirname, '../..');
type Ports = { GATEWAY_PORT: string; GATEWAY_METRICS_PORT: string; CERTIFICATE_PORT: string; MOBILITY_PORT: string };

// Free ports picked at run time: fixed ones collide when several checkouts run their tests on one machine.
async function freePorts(): Promise<Ports> {
  const pick = async () => {
    const probe = await listen(() => undefined);
    await probe.close();
    return String(probe.port);
  };
  return { GATEWAY_PORT: await pick(), GATEWAY_METRICS_PORT: await pick(), CERTIFICATE_PORT: await pick(), MOBILITY_PORT: await pick() };
}

interface Started {
  pnpm: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs the README's `pnpm start` as a terminal would: pnpm leads its own process group, so a Ctrl-C can be sent to the
 * whole group. Jest's source condition is left out of NODE_OPTIONS: the system runs compiled, with plain node.
 */
function pnpmStart(env: NodeJS.ProcessEnv): Started {
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').replace(/--conditions[= ]source\b/g, '').trim();
  const pnpm = spawn('pnpm', ['start'], { cwd: root, env: { ...process.env, NODE_OPTIONS: nodeOptions, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  pnpm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  pnpm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => pnpm.once('exit', (code) => resolve(code)));
  return { pnpm, output: () => output, exited };
}

function waitForOutput(started: Started, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (started.output().includes(text)) {
        clearInterval(timer);
        resolve();
      } else if (started.pnpm.exitCode !== null || Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`"${text}" not printed:\n${started.output()}`));
      }
    }, 100);
    const deadline = Date.now() + timeoutMs;
  });
}

async function answers(port: string): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** Waits until nothing answers on any of the ports (the processes are gone), or gives up after 30 s. */
async function untilAllStopped(ports: Ports): Promise<string[]> {
  const deadline = Date.now() + 30000;
  for (;;) {
    const answering: string[] = [];
    for (const port of Object.values(ports)) if (await answers(port)) answering.push(port);
    if (answering.length === 0 || Date.now() > deadline) return answering;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A system started with `pnpm start` on its own ports, database and Redis prefix; stopped and cleaned up by the test. */
function describeStartedSystem(title: string, body: (system: () => Started, ports: () => Ports, redisPrefix: string) => void): void {
  describe(title, () => {
    let started: Started;
    let ports: Ports;
    let databaseUrl: string;
    const redisPrefix = newRedisPrefix('start');
    beforeAll(async () => {
      ports = await freePorts();
      databaseUrl = await createRunDatabase('start');
      await dropRunDatabase(databaseUrl); // `pnpm start` must create it
      started = pnpmStart({ ...ports, DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix });
      await waitForOutput(started, 'Partner platform is up', 240000);
    }, 250000);
    afterAll(async () => {
      if (started.pnpm.exitCode === null) process.kill(-started.pnpm.pid!, 'SIGKILL');
      await untilAllStopped(ports);
      await dropRunDatabase(databaseUrl);
      await clearRedisPrefix(redisPrefix);
    }, 60000);
    body(
      () => started,
      () => ports,
      redisPrefix,
    );
  });
}

describeStartedSystem('pnpm start, then Ctrl-C', (system, ports, redisPrefix) => {
  it('creates the database, migrates, and brings the gateway to healthy and ready with both upstreams', async () => {
    const { GATEWAY_PORT } = ports();
    expect(system().output()).toContain(`gateway      http://127.0.0.1:${GATEWAY_PORT}`);
    const health = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${ports().GATEWAY_METRICS_PORT}/readyz`); // the gateway's internal port
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
    const proxied = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/v1/credits`);
    expect(proxied.status).toBe(401);
    expect(proxied.headers.get('ratelimit-limit')).toBe('600');
    expect(await redisKeys(`${redisPrefix}:ratelimit:*`)).toHaveLength(1);
    const unknown = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/no/such/path`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
  });

  it('drains every process once on one Ctrl-C (SIGINT to the whole process group) and exits 0', async () => {
    process.kill(-system().pnpm.pid!, 'SIGINT');
    expect(await system().exited).toBe(0);
    expect(system().output()).not.toContain('second signal');
    expect(system().output()).not.toContain('ELIFECYCLE');
    expect(await untilAllStopped(ports())).toEqual([]);
  });
});

describeStartedSystem('pnpm start, then SIGTERM to pnpm alone', (system, ports) => {
  it('stops every process and leaves no port answering', async () => {
    system().pnpm.kill('SIGTERM');
    await system().exited;
    expect(await untilAllStopped(ports())).toEqual([]);
    expect(system().output()).not.toContain('second signal');
  });
});

describe('pnpm start with the gateway port taken by another program', () => {
  it('names the port, starts nothing and exits 1', async () => {
    const ports = await freePorts();
    const squatter = await listen((_req, res) => res.end('someone else'));
    try {
      const started = pnpmStart({ ...ports, GATEWAY_PORT: String(squatter.port) });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`Port ${squatter.port} (gateway) is already in use by another program`);
      expect(started.output()).not.toContain('Partner platform is up');
      expect(await untilAllStopped({ ...ports, GATEWAY_PORT: ports.CERTIFICATE_PORT })).toEqual([]);
    } finally {
      await squatter.close();
    }
  }, 250000);
});
