/**
 * Starts the whole platform (the compiled `scripts/start.ts`, built first if stale) on its own ports, database and
 * Redis prefix, for load tests and drills.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { dropDatabase } from '@platform/service-kit/db';
import { deleteKeysWithPrefix } from '@platform/service-kit/redis';
import { compiledEnv } from '@platform/service-kit/compiled-env';
import { adoptDevSecrets } from './dev-secrets';
import { describeTakenPort } from './port-check';
import { readRunningState, workspaceRoot } from './running-state';

export interface RunningSystem {
  gateway: string;
  certificate: string;
  mobility: string;
  databaseUrl: string;
  redisPrefix: string;
  process: ChildProcess;
  output(): string;
  /**
   * Starts one more mobility worker (`services/mobility/dist/worker.js`) with the system's environment; for a system
   * started with `START_WITHOUT_WORKER: 'true'` (drills that kill and restart it). `stop()` stops it too.
   */
  startWorker(): ChildProcess;
  stop(): Promise<void>;
}

export async function startSystem(label: string, basePort: number, env: NodeJS.ProcessEnv = {}): Promise<RunningSystem> {
  const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  // With nothing configured, the Postgres and Redis of the running `pnpm start` (its .data/running.json), e.g. embedded ones.
  const running = readRunningState(workspaceRoot(__dirname));
  const database = new URL(process.env.DATABASE_URL ?? running?.databaseUrl ?? DEFAULT_DATABASE_URL);
  database.pathname = `/${label}_${suffix}`;
  const ports = { GATEWAY_PORT: String(basePort), CERTIFICATE_PORT: String(basePort + 1), MOBILITY_PORT: String(basePort + 2) };
  const redisPrefix = `${label}_${suffix}`;
  const systemEnv = compiledEnv({ ...process.env, LOG_LEVEL: 'warn', ...ports, DATABASE_URL: database.toString(), REDIS_URL: process.env.REDIS_URL ?? running?.redisUrl ?? DEFAULT_REDIS_URL, REDIS_PREFIX: redisPrefix, ...env });
  // The checkout's development secrets, as `pnpm start` gives its children: a worker started here (startWorker) must
  // decrypt the webhook secrets the API encrypted (WEBHOOK_SECRET_KEY), or it delivers nothing.
  adoptDevSecrets(workspaceRoot(__dirname), systemEnv);
  // Another program on one of these ports would answer the health checks: refuse to start rather than measure it.
  const taken = await describeTakenPort([
    { name: 'gateway', variable: 'the base port', port: basePort },
    { name: 'certificate service', variable: 'the base port', port: basePort + 1 },
    { name: 'mobility service', variable: 'the base port', port: basePort + 2 },
  ]);
  if (taken) throw new Error(taken);
  const build = spawnSync(process.execPath, [path.resolve(__dirname, 'build-if-stale.cjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`pnpm build failed (exit ${build.status})`);
  const child = spawn(process.execPath, [path.resolve(__dirname, '../dist/scripts/start.js')], {
    cwd: path.resolve(__dirname, '..'),
    env: systemEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const workers: ChildProcess[] = [];
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`system did not start within 90 s:\n${output}`)), 90000);
    const check = () => {
      if (output.includes('Partner platform is up')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`system exited with ${code}:\n${output}`));
    });
  });
  return {
    gateway: `http://127.0.0.1:${ports.GATEWAY_PORT}`,
    certificate: `http://127.0.0.1:${ports.CERTIFICATE_PORT}`,
    mobility: `http://127.0.0.1:${ports.MOBILITY_PORT}`,
    databaseUrl: database.toString(),
    redisPrefix,
    process: child,
    output: () => output,
    startWorker() {
      const worker = spawn(process.execPath, ['dist/worker.js'], {
        cwd: path.resolve(__dirname, '../services/mobility'),
        env: systemEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout!.on('data', (chunk: Buffer) => (output += `[worker ${worker.pid}] ${chunk.toString()}`));
      worker.stderr!.on('data', (chunk: Buffer) => (output += `[worker ${worker.pid}] ${chunk.toString()}`));
      workers.push(worker);
      return worker;
    },
    async stop() {
      await Promise.all(
        workers
          .filter((w) => w.exitCode === null && w.signalCode === null)
          .map((w) => {
            const exited = new Promise((resolve) => w.once('exit', resolve));
            w.kill('SIGTERM');
            return exited;
          }),
      );
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await dropDatabase(database.toString()).catch(() => undefined);
      await clearRedisPrefix(systemEnv.REDIS_URL ?? DEFAULT_REDIS_URL, redisPrefix).catch(() => undefined);
    },
  };
}

/** Deletes the run's keys (`{prefix}:…`: BullMQ queues, fleet indexes, rate-limit counters); gives up after 10 s. */
async function clearRedisPrefix(url: string, prefix: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 10000)));
  try {
    await Promise.race([deleteKeysWithPrefix(url, `${prefix}:`).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
