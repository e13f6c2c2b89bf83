import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, newRedisPrefix, spawnablePort } from '@platform/test-kit';
import { withoutSourceCondition } from '@platform/service-kit/compiled-env';

export const repositoryRoot = path.resolve(__dirname, '../../..');

export interface SystemPorts {
  GATEWAY_PORT: string;
  GATEWAY_METRICS_PORT: string;
  CERTIFICATE_PORT: string;
  MOBILITY_PORT: string;
}

export interface StartedSystem {
  /** The gateway's public base URL, e.g. http://127.0.0.1:41234 */
  gatewayUrl: string;
  ports: SystemPorts;
  databaseUrl: string;
  redisPrefix: string;
  output(): string;
  /** SIGINT to the whole process group, then waits for every port to close; drops the database and Redis keys. */
  stop(): Promise<void>;
}

/** A port below the kernel's ephemeral range, free now (see spawnablePort in test-kit). */
export async function freePort(): Promise<string> {
  return String(await spawnablePort());
}

/**
 * Runs `pnpm start` as the README does (compiled output, plain node) on free ports, a fresh database and its own Redis
 * prefix, and resolves once it prints that the platform is up. `env` adds or overrides variables. A start that fails
 * because one of its ports was taken meanwhile by a program outside the test-kit's reservations is tried again on new ports.
 */
export async function startSystem(name: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000): Promise<StartedSystem> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSystemOnce(name, env, timeoutMs);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startSystemOnce(name: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<StartedSystem> {
  const ports: SystemPorts = { GATEWAY_PORT: await freePort(), GATEWAY_METRICS_PORT: await freePort(), CERTIFICATE_PORT: await freePort(), MOBILITY_PORT: await freePort() };
  const databaseUrl = await createRunDatabase(name);
  await dropRunDatabase(databaseUrl); // `pnpm start` creates it
  const redisPrefix = newRedisPrefix(name);
  const nodeOptions = withoutSourceCondition(process.env.NODE_OPTIONS);
  const child: ChildProcess = spawn('pnpm', ['start'], {
    cwd: repositoryRoot,
    env: { ...process.env, NODE_OPTIONS: nodeOptions, LOG_LEVEL: 'warn', ...ports, DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + timeoutMs;
  while (!output.includes('Partner platform is up')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
      await dropRunDatabase(databaseUrl).catch(() => undefined);
      await clearRedisPrefix(redisPrefix);
      const message = `pnpm start did not come up:\n${output.slice(-4000)}`;
      throw /port \d+ is already in use/.test(output) ? new PortTakenError(message) : new Error(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    gatewayUrl: `http://127.0.0.1:${ports.GATEWAY_PORT}`,
    ports,
    databaseUrl,
    redisPrefix,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        process.kill(-child.pid!, 'SIGINT');
        const killer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 30_000);
        await exited;
        clearTimeout(killer);
      }
      await dropRunDatabase(databaseUrl).catch(() => undefined);
      await clearRedisPrefix(redisPrefix);
    },
  };
}

/** Anything a suite starts in its beforeAll: a system, a browser, a fake server. */
type Started = { stop(): Promise<unknown> } | { close(): Promise<unknown> | unknown };

/**
 * Awaits every start together, like Promise.all; but when one fails, it first closes the ones that did come up, so a
 * failed beforeAll leaves no browser, server or system behind to keep jest from exiting.
 */
export async function startTogether<T extends readonly Started[]>(starts: { readonly [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(starts as readonly Promise<Started>[]);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.allSettled(
      results.map(async (result) => {
        if (result.status !== 'fulfilled') return;
        const started = result.value;
        await ('stop' in started ? started.stop() : started.close());
      }),
    );
    throw failed.reason;
  }
  return results.map((result) => (result as PromiseFulfilledResult<Started>).value) as unknown as T;
}
