/**
 * `pnpm start`: the whole system on one machine. Creates the database if missing, applies both services'
 * migrations, starts both services, the worker and the gateway, prints where each listens, and stops them all
 * on Ctrl-C or SIGTERM (or when one of them dies).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, describeUnreachable, ensureDatabase, pingRedis } from '@platform/service-kit';

const root = path.resolve(__dirname, '..');
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
  { name: 'certificate', dir: 'services/certificate', entry: 'src/server.ts', env: { PORT: ports.certificate }, health: `http://127.0.0.1:${ports.certificate}/healthz` },
  {
    name: 'mobility',
    dir: 'services/mobility',
    entry: 'src/server.ts',
    env: { PORT: ports.mobility, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix },
    health: `http://127.0.0.1:${ports.mobility}/healthz`,
  },
  { name: 'worker', dir: 'services/mobility', entry: 'src/worker.ts', env: { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } },
  {
    name: 'gateway',
    dir: 'gateway',
    entry: 'src/server.ts',
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
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: path.join(root, part.dir),
    env: { ...env, ...part.env },
    stdio: ['ignore', 'pipe', 'pipe'],
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

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function migrate(part: Part): Promise<void> {
  const code = await exitCode(run({ ...part, name: `${part.name}:migrate` }, 'src/db/migrate.ts'));
  if (code !== 0) {
    console.error(`Migrations of ${part.name} failed (exit ${code}).`);
    process.exit(1);
  }
}

async function waitForHealth(url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

async function stopAll(code: number): Promise<never> {
  stopping = true;
  const exits = [...children.values()].filter((c) => c.exitCode === null).map((c) => {
    c.kill('SIGTERM');
    return exitCode(c);
  });
  const force = setTimeout(() => children.forEach((c) => c.kill('SIGKILL')), 15000);
  await Promise.all(exits);
  clearTimeout(force);
  process.exit(code);
}

async function main() {
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

  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
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
  const results = await Promise.all(parts.filter((p) => p.health).map(async (p) => [p, await waitForHealth(p.health!, deadline)] as const));
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
