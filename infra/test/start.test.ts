import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createRunDatabase, dropRunDatabase, listen, newRedisPrefix, redisUrl, spawnTs, clearRedisPrefix } from '@platform/test-kit';
import { createRedis } from '@platform/service-kit';

async function redisKeys(pattern: string): Promise<string[]> {
  const redis = createRedis(redisUrl());
  try {
    return await redis.keys(pattern);
  } finally {
    redis.disconnect();
  }
}

const root = path.resolve(__dirname, '../..');
// Free ports picked at run time: fixed ones collide when several checkouts run their tests on one machine.
const ports = { GATEWAY_PORT: '', GATEWAY_METRICS_PORT: '', CERTIFICATE_PORT: '', MOBILITY_PORT: '' };

async function freePort(): Promise<string> {
  const probe = await listen(() => undefined);
  await probe.close();
  return String(probe.port);
}

let system: ChildProcess;
let output = '';
let databaseUrl: string;
const redisPrefix = newRedisPrefix('start');

function waitForOutput(text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`"${text}" not printed within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    system.stdout!.on('data', check);
    check();
  });
}

beforeAll(async () => {
  for (const name of Object.keys(ports) as Array<keyof typeof ports>) ports[name] = await freePort();
  databaseUrl = await createRunDatabase('start');
  await dropRunDatabase(databaseUrl); // `pnpm start` must create it
  system = spawnTs(root, 'scripts/start.ts', { ...ports, DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'warn' });
  system.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  system.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForOutput('Partner platform is up', 60000);
}, 70000);

afterAll(async () => {
  if (system.exitCode === null) system.kill('SIGKILL');
  await dropRunDatabase(databaseUrl);
  await clearRedisPrefix(redisPrefix);
});

describe('pnpm start', () => {
  it('creates the database, migrates, and brings the gateway to healthy and ready with both upstreams', async () => {
    expect(output).toContain(`gateway      http://127.0.0.1:${ports.GATEWAY_PORT}`);
    const health = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${ports.GATEWAY_METRICS_PORT}/readyz`); // the gateway's internal port
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
    const proxied = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1/credits`);
    expect(proxied.status).toBe(401);
    expect(proxied.headers.get('ratelimit-limit')).toBe('600');
    expect(await redisKeys(`${redisPrefix}:ratelimit:*`)).toHaveLength(1);
    const unknown = await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/no/such/path`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => system.once('exit', (code) => resolve(code)));
    system.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${ports.CERTIFICATE_PORT}/healthz`)).rejects.toThrow();
  });
});
