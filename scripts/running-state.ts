/**
 * The one record of where a `pnpm start` runs: `.data/running.json` in the checkout (git-ignored), written from the
 * moment the starter starts its first process (`phase: 'starting'`, each process with its PID and start time, so that
 * a starter killed outright leaves a list of what it left running: see leftovers.ts), completed once the system is up
 * (`phase: 'up'`) and removed when it stops. `pnpm load` and the drills read it when nothing is configured, so they
 * reach the embedded Postgres and Redis without exported URLs; an explicit environment variable always wins. It holds
 * addresses, never a secret.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processState, type TrackedProcess } from './process-identity';

export interface RunningState {
  pid: number;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  gatewayUrl: string;
  ports: { gateway: string; certificate: string; mobility: string; gatewayMetrics: string };
  /** The starter's start time (see process-identity.ts); absent in files of older starters. */
  startTicks?: string;
  phase?: 'starting' | 'up';
  startedAt?: string;
  /** Every process the starter runs (itself not included): services, worker, gateway, an embedded Postgres or Redis. */
  processes?: TrackedProcess[];
  /** Where an embedded Postgres keeps its cluster (absolute); absent when the Postgres is not ours. */
  postgresDataDir?: string;
  embedded?: { postgres: boolean; redis: boolean };
  /** The local mail catcher, when `pnpm start` runs one (development without SMTP_URL): loopback addresses, no credentials. */
  mail?: { smtpUrl: string; inboxUrl: string };
}

/** What the file holds while the system is starting: the addresses appear as they are settled. */
export type RunningRecord = Partial<RunningState> & Pick<RunningState, 'pid'>;

/** The checkout holding `dir`: the first folder upwards with pnpm-workspace.yaml. */
export function workspaceRoot(dir: string): string {
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`pnpm-workspace.yaml not found above ${dir}`);
    dir = parent;
  }
  return dir;
}

export const runningStateFile = (root: string) => path.join(root, '.data', 'running.json');

/** Writes the whole record at once (a reader never sees half a file). */
export function writeRunningState(root: string, state: RunningRecord): void {
  const file = runningStateFile(root);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.${process.pid}`, file);
}

/** Removes the file if it is still this process's (a second start on other ports may have written its own since). */
export function removeRunningState(root: string, pid = process.pid): void {
  if (readRunningRecord(root)?.pid === pid) rmSync(runningStateFile(root), { force: true });
}

/** The file as it is, whether or not its starter still runs; undefined when there is none (or it is unreadable). */
export function readRunningRecord(root: string): RunningRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(runningStateFile(root), 'utf8')) as RunningRecord;
    return Number.isInteger(record.pid) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the starter that wrote the record still runs (its PID and start time both match; see process-identity.ts). */
export function starterRuns(record: RunningRecord): boolean {
  return processState({ pid: record.pid, startTicks: record.startTicks }) !== 'gone';
}

/** The running system's record, or undefined when there is none, it is still starting, or its starter is gone. */
export function readRunningState(root: string): RunningState | undefined {
  const record = readRunningRecord(root);
  if (!record || record.phase === 'starting' || record.databaseUrl === undefined || !starterRuns(record)) return undefined;
  return record as RunningState;
}

/** Whether `env` names a database itself (DATABASE_URL or a per-service one): then no record is consulted for it. */
export const databaseConfigured = (env: NodeJS.ProcessEnv) => env.DATABASE_URL !== undefined || env.CERTIFICATE_DATABASE_URL !== undefined || env.MOBILITY_DATABASE_URL !== undefined;
