import { createRunDatabase, dropRunDatabase, listen, newRedisPrefix, redisUrl, clearRedisPrefix } from '@platform/test-kit';
import { createRedis } from '@platform/service-kit/redis';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';

async function redisKeys(pattern: string): Promise<string[]> {
  const redis = createRedis(redisUrl());
  try {
    return await redis.keys(pattern);
  } finally {
    redis.disconnect();
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
    // The keyless request is counted for its address twice: its own budget and the address's across keys.
    expect((await redisKeys(`${redisPrefix}:ratelimit:*`)).sort()).toEqual([`${redisPrefix}:ratelimit:address:127.0.0.1`, `${redisPrefix}:ratelimit:ip:127.0.0.1`]);
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
