import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { compiledEnv } from '@platform/service-kit/compiled-env';

/** The repository's root: the nearest folder above this file that holds pnpm-workspace.yaml (from `src/` or `dist/`). */
function workspaceRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) {
    if (path.dirname(dir) === dir) throw new Error('no pnpm-workspace.yaml above the bench kit');
    dir = path.dirname(dir);
  }
  return dir;
}

export const root = workspaceRoot();

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time the measured server processes spent per request (µs), read from /proc: steadier than requests/s on a busy machine. */
  cpuMicrosPerRequest?: number;
}

/** User + system CPU time of a process in ms (Linux /proc; 0 elsewhere). */
export function processCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU time (ms) of every process whose command name starts with `name` (`postgres`, `redis-server`), from /proc. */
export function namedProcessesCpuMs(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue; // the process ended meanwhile
    }
    if (command.startsWith(name)) total += processCpuMs(Number(entry));
  }
  return total;
}

/**
 * CPU time (ms) of every descendant of `rootPid`, by a short name: the entry's folder and file (`mobility/server`,
 * `mobility/worker`, `gateway/server`, `certificate/server`) from the process's working directory and command line.
 */
export function descendantsCpuMs(rootPid: number | undefined): Map<string, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === rootPid) return true;
    return false;
  };
  const cpu = new Map<string, number>();
  for (const pid of parents.keys()) {
    if (!rootPid || !isDescendant(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const entry = args.find((arg) => arg.endsWith('.js')) ?? args[0] ?? String(pid);
      const name = `${path.basename(readlinkSync(`/proc/${pid}/cwd`))}/${path.basename(entry, '.js')}`;
      cpu.set(name, (cpu.get(name) ?? 0) + processCpuMs(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

/** Busy CPU time (ms) of the whole machine, every process and the kernel's interrupt work, from /proc/stat (0 elsewhere). */
export function machineCpuMs(): number {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * Starts an entry point as its own process and waits until `readyUrl` answers (or it prints `ready`). A TypeScript entry
 * runs from source through tsx; a built one (`.js`, e.g. `gateway/dist/server.js`) runs on plain node with the
 * workspace's built packages, as `pnpm start` runs it.
 */
export async function startProcess(entry: string, env: NodeJS.ProcessEnv, readyUrl: string, cpu?: number): Promise<ChildProcess> {
  // BENCH_CPU_PROFILE=<part of an entry's path>: that process writes a V8 CPU profile into bench/profiles when it exits.
  const profile = process.env.BENCH_CPU_PROFILE && entry.includes(process.env.BENCH_CPU_PROFILE) ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/profiles')}`] : [];
  const runner = entry.endsWith('.js') ? [] : ['--conditions=source', '--import', 'tsx'];
  const [command, args] = pinnedCommand(process.execPath, [...profile, ...runner, path.join(root, entry)], cpu);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...(entry.endsWith('.js') ? compiledEnv(process.env) : process.env), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(readyUrl)).status < 500) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not start`);
}

/** One second of load: JIT, pools, keep-alive sockets. */
export async function warmUp(options: autocannon.Options): Promise<void> {
  await autocannon({ ...options, duration: 1 });
}

export async function load(label: string, options: autocannon.Options, servers: ChildProcess[] = []): Promise<LoadResult> {
  await warmUp(options);
  const cpuBefore = servers.reduce((sum, child) => sum + processCpuMs(child.pid), 0);
  const result = await autocannon({ connections: 10, duration: 5, ...options });
  const cpuMs = servers.reduce((sum, child) => sum + processCpuMs(child.pid), 0) - cpuBefore;
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuMicrosPerRequest: servers.length && result.requests.total ? (cpuMs * 1000) / result.requests.total : undefined,
  };
}

export function printTable(title: string, rows: LoadResult[], ratios: Array<[string, number, number]>): void {
  console.log(`\n${title}\n`);
  console.log('| target | requests/s | p50 ms | p99 ms | non-2xx | server CPU µs/request |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const cpu = r.cpuMicrosPerRequest === undefined ? '-' : r.cpuMicrosPerRequest.toFixed(0);
    console.log(`| ${r.label} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${cpu} |`);
  }
  console.log('');
  for (const [name, ratio, target] of ratios) {
    console.log(`${name}: ${ratio.toFixed(2)} (target ≥ ${target}) ${ratio >= target ? 'OK' : 'BELOW TARGET'}`);
  }
}

/** The core a measured server runs alone on (`pinnedCommand`); the bench itself stays on CPU 0 (`pinSelfToFirstCore`). */
export const MEASURED_CPU = 1;

/**
 * On a machine with two or more cores, a measured server gets a core of its own (MEASURED_CPU) and everything else (the load
 * generator, the upstream) is kept on CPU 0: otherwise they trade places on both cores and the per-request CPU time of
 * the measured process swings by half from one run to the next. `taskset` (util-linux) does the pinning; without it,
 * or on one core, nothing is pinned.
 */
export function pinnedCommand(command: string, args: string[], cpu: number | undefined): [string, string[]] {
  if (cpu === undefined || !canPin()) return [command, args];
  return ['taskset', ['-c', String(cpu), command, ...args]];
}

let pinning: boolean | undefined;
export function canPin(): boolean {
  if (pinning === undefined) pinning = os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  return pinning;
}

/**
 * Measures each target `rounds` times, alternating (a, b, a, b, ...), and keeps each target's round with the median CPU per
 * request: a burst of other work on the machine then moves one round, not the comparison. Prints every round's figure.
 */
export async function alternatingRounds(rounds: number, targets: Array<() => Promise<LoadResult>>): Promise<LoadResult[]> {
  const runs: LoadResult[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) runs[i]!.push(await target());
  }
  return runs.map((results) => {
    const sorted = [...results].sort((x, y) => (x.cpuMicrosPerRequest ?? 0) - (y.cpuMicrosPerRequest ?? 0));
    console.log(`${results[0]!.label}: CPU µs/request per round ${results.map((r) => r.cpuMicrosPerRequest?.toFixed(0) ?? '-').join(', ')}; median kept`);
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  });
}

/** Keeps this process (autocannon runs in it) on CPU 0, away from the measured server's core. */
export function pinSelfToFirstCore(): void {
  if (canPin()) spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)]);
}

/**
 * Builds what is stale (`scripts/build-if-stale.cjs`, as `pnpm start` does), so a bench that runs built entry points
 * (`gateway/dist/server.js`) measures the code in the tree, compiled as it runs in production. BENCH_SKIP_BUILD=1 runs
 * the build as it is (to measure it on a Node the build refuses, such as Node 20).
 */
export function buildIfStale(): void {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.cjs')], { cwd: root, stdio: 'inherit', env: compiledEnv(process.env) });
  if (result.status !== 0) throw new Error('the build failed: see above');
}
