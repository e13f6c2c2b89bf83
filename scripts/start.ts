/**
 * `pnpm start`: the whole system on one machine, from the compiled build (`pnpm build` runs first). Checks the ports are
 * free, finds Postgres and Redis (with none configured and nothing at the default address, starts its own: see
 * local-stores.ts), creates the database if missing, applies both services' migrations, starts both services, the worker and the
 * gateway with plain node, prints where each listens, and stops them all, each drained once, on Ctrl-C, SIGTERM or
 * SIGHUP, when `pnpm` itself goes away, or when one of them dies (an embedded Postgres or Redis is stopped last).
 * `--replicas <n>` / REPLICAS=n runs n of the gateway, each service and the worker (see replicas.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { compiledEnv } from '@platform/service-kit/compiled-env';
import { recordCheckoutData } from './checkout-data';
import { adoptDevSecrets, devSecretsFile } from './dev-secrets';
import type { LocalServer } from './embedded-postgres';
import { devLogFormatter, logFormatOf } from './dev-log';
import { reclaimLeftovers } from './leftovers';
import { startLocalMailCatcher, type LocalMailCatcher } from './local-mail';
import { databaseConfigured, readRunningRecord, removeRunningState, runningStateFile, starterRuns, workspaceRoot, writeRunningState, type RunningRecord } from './running-state';
import { resolvePostgres, resolveRedis, type Store } from './local-stores';
import { describeTakenPort } from './port-check';
import { startTicksOf, track } from './process-identity';
import { replicaCount, replicaName, replicaPort } from './replicas';

// The checkout this starter belongs to (scripts/start.ts under tsx, dist/scripts/start.js once built): `.data` is there.
const root = workspaceRoot(__dirname);
const env = process.env;
const ports = {
  gateway: env.GATEWAY_PORT ?? '8080',
  certificate: env.CERTIFICATE_PORT ?? '3001',
  mobility: env.MOBILITY_PORT ?? '3002',
};
const gatewayMetricsPort = env.GATEWAY_METRICS_PORT ?? (env.GATEWAY_PORT ? String(Number(env.GATEWAY_PORT) + 3) : '9464');
const replicas = replicaCount(process.argv.slice(2), env);
const count = typeof replicas === 'number' ? replicas : 1;
const indexes = Array.from({ length: count }, (_, i) => i);
/** Where the dashboard is opened: every gateway replica's port, by name and by address (the account routes check `Origin`). */
const dashboardOrigins = indexes.flatMap((i) => [`http://localhost:${replicaPort(ports.gateway, i)}`, `http://127.0.0.1:${replicaPort(ports.gateway, i)}`]).join(',');
// Every gateway replica takes every service replica in turn (round robin over the comma-separated list).
const certificateUrl = env.CERTIFICATE_URL ?? indexes.map((i) => `http://127.0.0.1:${replicaPort(ports.certificate, i)}`).join(',');
const mobilityUrl = env.MOBILITY_URL ?? indexes.map((i) => `http://127.0.0.1:${replicaPort(ports.mobility, i)}`).join(',');
const redisPrefix = env.REDIS_PREFIX ?? 'platform';

/**
 * Development only: local receivers (`pnpm platform webhooks listen`, a partner's laptop) are http:// on 127.0.0.1, which
 * the mobility service refuses unless told. With NODE_ENV=production nothing is allowed here; an explicit setting wins.
 */
const developmentWebhookTargets: NodeJS.ProcessEnv =
  env.NODE_ENV === 'production' ? {} : { WEBHOOK_ALLOW_HTTP: env.WEBHOOK_ALLOW_HTTP ?? 'true', WEBHOOK_ALLOW_PRIVATE: env.WEBHOOK_ALLOW_PRIVATE ?? 'true' };

interface Part {
  name: string;
  dir: string;
  entry: string;
  /** Node's own flags before the entry (the certificate service's heap, as its manifests give it). */
  nodeArgs?: string[];
  env: NodeJS.ProcessEnv;
  health?: string;
}

/** LOG_FORMAT (docs/configuration.md): short lines for people in development, the processes' JSON lines otherwise. */
const logFormat = logFormatOf(env);
/** As wide as the longest running part's name (`certificate`, `certificate-2`, …) so the lines' columns line up. */
const prettyLine = logFormat === 'pretty' ? devLogFormatter(replicaName('certificate', count - 1).length) : undefined;

// START_WITHOUT_WORKER=true leaves the worker out (drills start and kill it themselves); `pnpm start` runs all four.
const withoutWorker = env.START_WITHOUT_WORKER === 'true';

/** One replica of each process; `index` 0 is the only one without --replicas. */
const replicaParts = (redisUrl: string, i: number): Part[] => {
  const certificate = replicaPort(ports.certificate, i);
  const mobility = replicaPort(ports.mobility, i);
  const gateway = replicaPort(ports.gateway, i);
  return [
    {
      name: replicaName('certificate', i),
      dir: 'services/certificate',
      entry: 'dist/server.js',
      // The heap the image runs it with (infra/k8s/certificate.yaml, docker-compose.yml): 256 MB of its 512 Mi container,
      // the rest for the render workers' own heaps and canvases and scrypt's 128 MiB per sign-in.
      nodeArgs: ['--max-old-space-size=256'],
      // Behind the gateway: one more trusted hop than the gateway's for the sign-in throttle's client address, and the
      // dashboard's origins on the gateway's port for the account routes' Origin check (every gateway replica's).
      env: {
        PORT: certificate,
        TRUST_PROXY_HOPS: String(Number(env.TRUST_PROXY_HOPS ?? '0') + 1),
        DASHBOARD_ORIGINS: env.DASHBOARD_ORIGINS ?? dashboardOrigins,
        // Ended dashboard sessions reach every gateway at once through the gateways' Redis (same prefix).
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
      },
      health: `http://127.0.0.1:${certificate}/healthz`,
    },
    {
      name: replicaName('mobility', i),
      dir: 'services/mobility',
      entry: 'dist/server.js',
      env: { PORT: mobility, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix, ...developmentWebhookTargets },
      health: `http://127.0.0.1:${mobility}/healthz`,
    },
    { name: replicaName('worker', i), dir: 'services/mobility', entry: 'dist/worker.js', env: { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix, ...developmentWebhookTargets } },
    {
      name: replicaName('gateway', i),
      dir: 'gateway',
      entry: 'dist/server.js',
      // The gateway keeps its rate-limit counters in the same Redis, under the same prefix, as the mobility service
      // (so replicas share them). Its internal port (/metrics, /readyz) is GATEWAY_PORT + 3 when GATEWAY_PORT is given,
      // so systems started side by side never collide.
      env: {
        PORT: gateway,
        METRICS_PORT: replicaPort(gatewayMetricsPort, i),
        CERTIFICATE_URL: certificateUrl,
        MOBILITY_URL: mobilityUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
      },
      health: `http://127.0.0.1:${gateway}/healthz`,
    },
  ];
};
const partsFor = (redisUrl: string) => indexes.flatMap((i) => replicaParts(redisUrl, i)).filter((p) => !withoutWorker || !p.name.startsWith('worker'));
const servicePart = (parts: Part[], name: string) => parts.find((p) => p.name === name)!;

const children = new Map<string, ChildProcess>();
/** The Postgres and Redis this starter runs itself, stopped after every child; `starting` settles once none is starting. */
const localServers: LocalServer[] = [];
let starting: Promise<unknown> = Promise.resolve();
let stopping = false;

/**
 * This start's `.data/running.json`, rewritten as each process starts (so a `kill -9` of this starter leaves the list
 * of what still runs for the next start to stop: see leftovers.ts) and completed once everything is up.
 */
const record: RunningRecord = { pid: process.pid, startTicks: startTicksOf(process.pid), phase: 'starting', startedAt: new Date().toISOString(), processes: [] };
function saveRecord(): void {
  if (!stopping) writeRunningState(root, record);
}
function recordProcess(name: string, pid: number | undefined): void {
  const tracked = track(name, pid);
  if (tracked) record.processes!.push(tracked);
  saveRecord();
}

/** `PLATFORM_CPU_PROFILE=worker` (a part's name: gateway, certificate, mobility, worker): that process writes a V8 CPU profile into bench/profiles when it stops. */
const profiled = (part: Part) => (process.env.PLATFORM_CPU_PROFILE && part.name === process.env.PLATFORM_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/profiles')}`] : []);

function run(part: Part, entry = part.entry): ChildProcess {
  const child = spawn(process.execPath, [...profiled(part), ...(part.nodeArgs ?? []), entry], {
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
      for (const line of lines) {
        const text = prettyLine ? prettyLine(part.name, line) : prefix + line;
        if (text !== undefined) out.write(text + '\n');
      }
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
    removeRunningState(root);
    const running = [...children.values()].filter(isRunning);
    const exits = running.map((child) => {
      child.kill('SIGTERM');
      return exitCode(child);
    });
    const force = setTimeout(() => running.forEach((child) => isRunning(child) && child.kill('SIGKILL')), 15000);
    await Promise.all(exits);
    clearTimeout(force);
    await starting;
    await Promise.all(localServers.map((server) => server.stop()));
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

/** A Postgres or Redis of ours that dies takes everything down, as a child that dies does. */
function watchLocalServer(name: string, server: LocalServer): void {
  server.process.once('exit', (code) => {
    if (stopping) return;
    console.error(`The ${name} exited (code ${code}); stopping everything.`);
    void stopAll(1);
  });
}

/**
 * Refuses to start, with one line, on a bad `--replicas` or LOG_FORMAT, or when an earlier start left processes behind
 * that cannot be reclaimed.
 */
async function refuseBadStart(): Promise<void> {
  if (typeof replicas !== 'number') {
    console.error(replicas.failure);
    process.exit(1);
  }
  if (!logFormat) {
    console.error(`LOG_FORMAT must be pretty or json (got ${JSON.stringify(env.LOG_FORMAT)})`);
    process.exit(1);
  }
  const leftovers = await reclaimLeftovers(root);
  if (leftovers) {
    console.error(leftovers);
    process.exit(1);
  }
}

/** Refuses to start, with one line naming what holds it, when a port of a gateway or service replica is taken. */
async function refuseTakenPorts(): Promise<void> {
  const replicaSuffix = (i: number) => (i === 0 ? '' : ` replica ${i + 1}`);
  const earlier = readRunningRecord(root);
  const heldByEarlierStart = (port: number) =>
    earlier && starterRuns(earlier) && Object.values(earlier.ports ?? {}).includes(String(port))
      ? `the pnpm start already running in this checkout (pid ${earlier.pid}; \`pnpm platform status\` shows it): stop it with Ctrl-C in its terminal or \`kill ${earlier.pid}\``
      : undefined;
  const taken = await describeTakenPort(
    indexes.flatMap((i) => [
      { name: `gateway${replicaSuffix(i)}`, variable: 'GATEWAY_PORT', port: Number(replicaPort(ports.gateway, i)) },
      { name: `certificate service${replicaSuffix(i)}`, variable: 'CERTIFICATE_PORT', port: Number(replicaPort(ports.certificate, i)) },
      { name: `mobility service${replicaSuffix(i)}`, variable: 'MOBILITY_PORT', port: Number(replicaPort(ports.mobility, i)) },
    ]),
    heldByEarlierStart,
  );
  if (taken) {
    console.error(taken);
    process.exit(1);
  }
}

type FoundStore = Exclude<Store, { failure: string }>;
interface Stores {
  postgres: FoundStore;
  redis: FoundStore;
}

/** A store being found (or started): the store, or undefined once everything is stopping (it failed: one line said why). */
async function storeOrStop(found: Promise<Store>): Promise<FoundStore | undefined> {
  starting = found.catch(() => undefined);
  const store = await found;
  if ('failure' in store) {
    console.error(store.failure);
    await stopAll(1);
  }
  if (stopping || 'failure' in store) return undefined;
  return store;
}

/**
 * Postgres, then Redis: the configured ones, the default addresses, or our own (see local-stores.ts), each written into
 * the running record and the checkout's data as it is found. Undefined when the start is stopping.
 */
async function startStores(): Promise<Stores | undefined> {
  const onStarted = (name: string, server: LocalServer) => {
    localServers.push(server);
    watchLocalServer(name, server);
    recordProcess(name, server.process.pid);
  };
  const configuredDatabase = databaseConfigured(env);
  const postgres = await storeOrStop(resolvePostgres(env, root, onStarted));
  if (!postgres) return undefined;
  if (postgres.server) env.DATABASE_URL = postgres.url; // every child (migrations, services) uses it
  Object.assign(record, { databaseUrl: env.DATABASE_URL ?? postgres.url, postgresDataDir: postgres.absoluteDataDir });
  // What `pnpm platform reset` may remove later: only databases made where nothing was configured, and our own clusters.
  recordCheckoutData(root, {
    createdDatabases: configuredDatabase ? [] : postgres.createdDatabases,
    embeddedPostgres: postgres.absoluteDataDir,
    lastStores: { postgres: { url: record.databaseUrl!, embedded: postgres.server !== undefined } },
  });
  const redis = await storeOrStop(resolveRedis(env, onStarted));
  if (!redis) return undefined;
  Object.assign(record, { redisUrl: redis.url, redisPrefix, embedded: { postgres: postgres.server !== undefined, redis: redis.server !== undefined } });
  recordCheckoutData(root, { lastStores: { postgres: { url: record.databaseUrl!, embedded: postgres.server !== undefined }, redis: { url: redis.url, embedded: redis.server !== undefined } } });
  saveRecord();
  return { postgres, redis };
}

/** Runs every part, each one's death stopping everything, and waits up to 60 s for each health URL; false once stopping. */
async function startParts(parts: Part[]): Promise<boolean> {
  for (const part of parts) {
    const child = run(part);
    children.set(part.name, child);
    recordProcess(part.name, child.pid);
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
  if (stopping) return false;
  for (const [part, up] of results) {
    if (!up) {
      console.error(`${part.name} did not become healthy within 60 s; stopping everything.`);
      await stopAll(1);
    }
  }
  return true;
}

/** What `pnpm start` prints once everything is up: where each part listens, and where to go next. */
function upBanner({ postgres, redis }: Stores, mail: LocalMailCatcher | undefined, generatedSecrets: string[]): string {
  return [
    '',
    'Partner platform is up:',
    ...indexes.map(
      (i) =>
        `  ${replicaName('gateway', i).padEnd(11)}  ${env.TLS_CERT_FILE ? 'https' : 'http'}://127.0.0.1:${replicaPort(ports.gateway, i)}   (public API, payment webhooks, driver API; ${env.RATE_LIMIT_PER_MINUTE ?? 600} requests/min per key, ${env.RATE_LIMIT_PER_ADDRESS_PER_MINUTE ?? 6000} per address${count > 1 ? ', shared by the replicas' : ''})`,
    ),
    ...indexes.map((i) => `  ${replicaName('certificate', i).padEnd(11)}  http://127.0.0.1:${replicaPort(ports.certificate, i)}   (admin API at /admin/v1)`),
    ...indexes.map((i) => `  ${replicaName('mobility', i).padEnd(11)}  http://127.0.0.1:${replicaPort(ports.mobility, i)}   (admin API at /admin/v1)`),
    withoutWorker
      ? '  worker       not started (START_WITHOUT_WORKER=true)'
      : `  worker       BullMQ (webhook deliveries, dispatch timers)${count > 1 ? `, ${count} of them` : ''}`,
    ...(postgres.server ? [`  postgres     ${postgres.url}   (embedded, data in ${postgres.dataDir}, stopped with the rest)`] : []),
    ...(redis.server ? [`  redis        ${redis.url}   (redis-server, nothing saved, stopped with the rest)`] : []),
    ...(mail ? [`  mail inbox   ${mail.inboxUrl}   (local mail catcher: sign-up, password-reset and invitation mails)`] : []),
    `  API docs     http://127.0.0.1:${ports.gateway}/docs   (description: /openapi.json)`,
    `  listening on ${env.BIND_ADDRESS ?? '127.0.0.1'}${env.BIND_ADDRESS ? '' : '   (this machine only; BIND_ADDRESS=0.0.0.0 opens every interface)'}`,
    ...(generatedSecrets.length > 0 ? [`  secrets      ${path.relative(process.cwd(), devSecretsFile(root)) || devSecretsFile(root)}   (this checkout's development ${generatedSecrets.join(', ')}; pnpm platform uses them too)`] : []),
    '  operator CLI pnpm platform --help   (status, reset, organizations, keys, drivers, tokens, webhooks listen, trigger)',
    `  addresses    ${path.relative(process.cwd(), runningStateFile(root)) || runningStateFile(root)}   (read by pnpm platform, load and drills; removed on stop)`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

async function main() {
  stopOnSignalsAndOrphaning();
  await refuseBadStart();
  // JWT_SECRET, CREDENTIAL_SIGNING_KEY, … this checkout's own (generated once into .data/dev-secrets.json), never the published ones.
  const generatedSecrets = adoptDevSecrets(root, env);
  await refuseTakenPorts();
  record.ports = { gateway: ports.gateway, certificate: ports.certificate, mobility: ports.mobility, gatewayMetrics: gatewayMetricsPort };
  saveRecord();
  const stores = await startStores();
  if (!stores) return;
  // Development without SMTP_URL: a local mail catcher receives the certificate service's mails (see local-mail.ts).
  const mail = !env.SMTP_URL && env.NODE_ENV !== 'production' ? await startLocalMailCatcher() : undefined;
  if (mail) Object.assign(env, { SMTP_URL: mail.smtpUrl, MAIL_INBOX_URL: mail.inboxUrl });
  if (mail) record.mail = { smtpUrl: mail.smtpUrl, inboxUrl: mail.inboxUrl };
  const parts = partsFor(stores.redis.url);
  await migrate(servicePart(parts, 'certificate')); // once, whatever the number of replicas
  await migrate(servicePart(parts, 'mobility'));
  if (stopping) return;
  if (!(await startParts(parts))) return;
  const gatewayUrl = `${env.TLS_CERT_FILE ? 'https' : 'http'}://127.0.0.1:${ports.gateway}`;
  Object.assign(record, { phase: 'up', gatewayUrl });
  saveRecord();
  console.log(upBanner(stores, mail, generatedSecrets));
}

void main();
