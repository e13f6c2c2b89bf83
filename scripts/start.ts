/**
 * `pnpm start`: the whole system on one machine, from the compiled build (`pnpm build` runs first). Checks the ports are
 * free, creates the database if missing, applies both services' migrations, starts both services, the worker and the
 * gateway with plain node, prints where each listens, and stops them all, each drained once, on Ctrl-C, SIGTERM or
 * SIGHUP, when `pnpm` itself goes away, or when one of them dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { describeUnreachable, ensureDatabase } from '@platform/service-kit/db';
import { pingRedis } from '@platform/service-kit/redis';
import { compiledEnv } from './compiled-env';
import { describeTakenPort } from './port-check';

/** The workspace root: this file runs as scripts/start.ts under tsx and as dist/scripts/start.js once built. */
function workspaceRoot(dir: string): string {
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('pnpm-workspace.yaml not found above the starter');
    dir = parent;
  }
  return dir;
}

const root = workspaceRoot(__dirname);
const env = process.env;
const ports = {
  gateway: env.GATEWAY_PORT ?? '8080',
  certificate: env.CERTIFICATE_PORT ?? '3001',
  mobility: env.MOBILITY_PORT ?? '3002',
};
const gatewayMetricsPort = env.GATEWAY_METRICS_PORT ?? (env.GATEWAY_PORT ? String(Number(env.GATEWAY_PORT) + 3) : '9464');
const certificateUrl = env.CERTIFICATE_URL ?? `http://127.0.0.1:${ports.certificate}`;
const mobilityUrl = env.MOBILITY_URL ?? `http://127.0.0.1:${ports.mobility}`;
const redisUrl = env.REDIS_URL ?? DEFAULT_REDIS_URL;
const redisPrefix = env.REDIS_PREFIX ?? 'platform';

interface Part {
  name: string;
  dir: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  health?: string;
}

// START_WITHOUT_WORKER=true leaves the worker out (drills start and kill it themselves); `pnpm start` runs all four.
const withoutWorker = env.START_WITHOUT_WORKER === 'true';

const allParts: Part[] = [
  {
    name: 'certificate',
    dir: 'services/certificate',
    entry: 'dist/server.js',
    // Behind the gateway: one more trusted hop than the gateway's for the sign-in throttle's client address, and the
    // dashboard's origins on the gateway's port for the account routes' Origin check.
    env: {
      PORT: ports.certificate,
      TRUST_PROXY_HOPS: String(Number(env.TRUST_PROXY_HOPS ?? '0') + 1),
      DASHBOARD_ORIGINS: env.DASHBOARD_ORIGINS ?? `http://localhost:${ports.gateway},http://127.0.0.1:${ports.gateway}`,
    },
    health: `http://127.0.0.1:${ports.certificate}/healthz`,
  },
  {
    name: 'mobility',
    dir: 'services/mobility',
    entry: 'dist/server.js',
    env: { PORT: ports.mobility, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix },
    health: `http://127.0.0.1:${ports.mobility}/healthz`,
  },
  { name: 'worker', dir: 'services/mobility', entry: 'dist/worker.js', env: { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } },
  {
    name: 'gateway',
    dir: 'gateway',
    entry: 'dist/server.js',
    // The gateway keeps its rate-limit counters in the same Redis, under the same prefix, as the mobility service.
    // Its internal port (/metrics, /readyz) is GATEWAY_PORT + 3 when GATEWAY_PORT is given, so systems started side by side never collide.
    env: { PORT: ports.gateway, METRICS_PORT: gatewayMetricsPort, CERTIFICATE_URL: certificateUrl, MOBILITY_URL: mobilityUrl, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix },
    health: `http://127.0.0.1:${ports.gateway}/healthz`,
  },
];
const parts = withoutWorker ? allParts.filter((p) => p.name !== 'worker') : allParts;

const children = new Map<string, ChildProcess>();
let stopping = false;

function run(part: Part, entry = part.entry): ChildProcess {
  const child = spawn(process.execPath, [entry], {
    cwd: path.join(root, part.dir),
    env: compiledEnv({ ...env, ...part.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C in the terminal reaches only this starter, which then stops each child once.
    detached: true,
  });
  const prefix = `[${part.name}] `;
  const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) out.write(prefix + line + '\n');
    });
  };
  forward(child.stdout!, process.stdout);
  forward(child.stderr!, process.stderr);
  return child;
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exitCode(child: ChildProcess): Promise<number> {
  if (!isRunning(child)) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function migrate(part: Part): Promise<void> {
  const migration = run({ ...part, name: `${part.name}:migrate` }, 'dist/db/migrate.js');
  children.set(`${part.name}:migrate`, migration);
  const code = await exitCode(migration);
  children.delete(`${part.name}:migrate`);
  if (code !== 0 && !stopping) {
    console.error(`Migrations of ${part.name} failed (exit ${code}).`);
    await stopAll(1);
  }
}

/** Healthy means our own child answers: another program on the port would answer too, so the child must be alive. */
async function waitForHealth(child: ChildProcess, url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline && isRunning(child)) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok && isRunning(child)) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Stops every child once (SIGTERM, then SIGKILL after 15 s) and exits; later calls wait for the first. */
let stopped: Promise<never> | undefined;
function stopAll(code: number): Promise<never> {
  stopped ??= (async () => {
    stopping = true;
    const running = [...children.values()].filter(isRunning);
    const exits = running.map((child) => {
      child.kill('SIGTERM');
      return exitCode(child);
    });
    const force = setTimeout(() => running.forEach((child) => isRunning(child) && child.kill('SIGKILL')), 15000);
    await Promise.all(exits);
    clearTimeout(force);
    process.exit(code);
  })();
  return stopped;
}

/**
 * One signal stops everything once: Ctrl-C, SIGTERM (timeout, a supervisor, pnpm passing its own on) and SIGHUP (the
 * terminal closing). If pnpm is killed outright this process is re-parented; that stops everything too.
 */
function stopOnSignalsAndOrphaning(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stopAll(0);
  }, 500).unref();
}

async function main() {
  stopOnSignalsAndOrphaning();
  const taken = await describeTakenPort([
    { name: 'gateway', variable: 'GATEWAY_PORT', port: Number(ports.gateway) },
    { name: 'certificate service', variable: 'CERTIFICATE_PORT', port: Number(ports.certificate) },
    { name: 'mobility service', variable: 'MOBILITY_PORT', port: Number(ports.mobility) },
  ]);
  if (taken) {
    console.error(taken);
    process.exit(1);
  }
  const databaseUrl = env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  try {
    await ensureDatabase(env.CERTIFICATE_DATABASE_URL ?? databaseUrl);
    await ensureDatabase(env.MOBILITY_DATABASE_URL ?? databaseUrl);
  } catch (error) {
    console.error(describeUnreachable('Postgres', databaseUrl, error));
    process.exit(1);
  }
  try {
    await pingRedis(redisUrl);
  } catch (error) {
    console.error(describeUnreachable('Redis', redisUrl, error));
    process.exit(1);
  }
  await migrate(parts[0]!);
  await migrate(parts[1]!);
  if (stopping) return;

  for (const part of parts) {
    const child = run(part);
    children.set(part.name, child);
    child.once('exit', (code) => {
      if (stopping) return;
      console.error(`${part.name} exited (code ${code}); stopping everything.`);
      void stopAll(1);
    });
  }
  const deadline = Date.now() + 60000;
  const results = await Promise.all(
    parts.filter((p) => p.health).map(async (p) => [p, await waitForHealth(children.get(p.name)!, p.health!, deadline)] as const),
  );
  if (stopping) return;
  for (const [part, up] of results) {
    if (!up) {
      console.error(`${part.name} did not become healthy within 60 s; stopping everything.`);
      await stopAll(1);
    }
  }
  console.log(
    [
      '',
      'Partner platform is up:',
      `  gateway      ${env.TLS_CERT_FILE ? 'https' : 'http'}://127.0.0.1:${ports.gateway}   (public API, payment webhooks, driver API; ${env.RATE_LIMIT_PER_MINUTE ?? 600} requests/min per key)`,
      `  certificate  http://127.0.0.1:${ports.certificate}   (admin API at /admin/v1)`,
      `  mobility     http://127.0.0.1:${ports.mobility}   (admin API at /admin/v1)`,
      withoutWorker ? '  worker       not started (START_WITHOUT_WORKER=true)' : '  worker       BullMQ (webhook deliveries, dispatch timers)',
      `  API docs     http://127.0.0.1:${ports.gateway}/docs   (description: /openapi.json)`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

void main();
