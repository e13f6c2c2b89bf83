import { createServer } from 'node:net';
import { createRunDatabase, dropRunDatabase, newRedisPrefix, clearRedisPrefix } from '@platform/test-kit';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** Free base ports whose second replicas (base + 10) are free too. */
async function replicaPorts(): Promise<{ first: Ports; second: Ports }> {
  for (;;) {
    const first = await freePorts();
    const second = Object.fromEntries(Object.entries(first).map(([name, port]) => [name, String(Number(port) + 10)])) as Ports;
    const free = await Promise.all(Object.values(second).map((port) => isFree(Number(port))));
    if (Number(first.GATEWAY_PORT) + 10 < 65536 && free.every(Boolean)) return { first, second };
  }
}

/** How many requests a service process has answered on a route (its `/metrics` histogram counts). */
async function answered(port: string, route: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_request_duration_seconds_count{') && line.includes(`route="${route}"`))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe('pnpm start --replicas 2', () => {
  let started: Started;
  let ports: { first: Ports; second: Ports };
  let databaseUrl: string;
  const redisPrefix = newRedisPrefix('replicas');

  beforeAll(async () => {
    ports = await replicaPorts();
    databaseUrl = await createRunDatabase('replicas');
    started = pnpmStart({ ...ports.first, DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, RATE_LIMIT_PER_MINUTE: '4' }, ['--replicas', '2']);
    await waitForOutput(started, 'Partner platform is up', 240000);
  }, 250000);

  afterAll(async () => {
    if (started.pnpm.exitCode === null) process.kill(-started.pnpm.pid!, 'SIGKILL');
    await untilAllStopped(ports.first);
    await untilAllStopped(ports.second);
    await dropRunDatabase(databaseUrl);
    await clearRedisPrefix(redisPrefix);
  }, 60000);

  it('runs two of the gateway, each service and the worker, each gateway ready over every service replica', async () => {
    const output = started.output();
    expect(output).toContain(`gateway-2    http://127.0.0.1:${ports.second.GATEWAY_PORT}`);
    expect(output).toContain(`certificate-2  http://127.0.0.1:${ports.second.CERTIFICATE_PORT}`);
    expect(output).toContain(`mobility-2   http://127.0.0.1:${ports.second.MOBILITY_PORT}`);
    expect(output).toContain('2 of them');
    for (const replica of [ports.first, ports.second]) {
      const ready = await fetch(`http://127.0.0.1:${replica.GATEWAY_METRICS_PORT}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
      for (const port of [replica.CERTIFICATE_PORT, replica.MOBILITY_PORT]) expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    }
  });

  it('spreads requests over both service replicas and shares one rate limit between the gateways', async () => {
    const before = await Promise.all([ports.first, ports.second].map((p) => answered(p.CERTIFICATE_PORT, '/api/v1/credits')));
    const statuses: number[] = [];
    for (const gateway of [ports.first.GATEWAY_PORT, ports.second.GATEWAY_PORT, ports.first.GATEWAY_PORT, ports.second.GATEWAY_PORT, ports.first.GATEWAY_PORT]) {
      const res = await fetch(`http://127.0.0.1:${gateway}/api/v1/credits`);
      statuses.push(res.status);
    }
    // 4 a minute for this client address (no key), counted in the shared Redis: the fifth is refused whichever gateway it reaches.
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const after = await Promise.all([ports.first, ports.second].map((p) => answered(p.CERTIFICATE_PORT, '/api/v1/credits')));
    expect(after[0]! - before[0]!).toBe(2);
    expect(after[1]! - before[1]!).toBe(2);
  });

  it('stops every replica on SIGTERM', async () => {
    started.pnpm.kill('SIGTERM');
    await started.exited;
    expect(await untilAllStopped(ports.first)).toEqual([]);
    expect(await untilAllStopped(ports.second)).toEqual([]);
  });
});

describe('pnpm start with a bad replica count', () => {
  it('names it in one line, starts nothing and exits 1', async () => {
    const ports = await freePorts();
    const started = pnpmStart({ ...ports, REPLICAS: '0' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('REPLICAS must be a whole number from 1 to 9 (got "0").');
    expect(await untilAllStopped(ports)).toEqual([]);
  }, 250000);
});
