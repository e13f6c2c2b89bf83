/**
 * The one record of where a `pnpm start` runs: `.data/running.json` in the checkout (git-ignored), written once the
 * system is up and removed when it stops. `pnpm platform`, `pnpm load` and the drills read it when nothing is configured,
 * so they reach the embedded Postgres and Redis without exported URLs; an explicit environment variable always wins,
 * and a file whose starter is no longer alive (killed outright) is ignored. It holds addresses, never a secret.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface RunningState {
  pid: number;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  gatewayUrl: string;
  ports: { gateway: string; certificate: string; mobility: string; gatewayMetrics: string };
  /** The local mail catcher, when `pnpm start` runs one (development without SMTP_URL): loopback addresses, no credentials. */
  mail?: { smtpUrl: string; inboxUrl: string };
}

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

export function writeRunningState(root: string, state: RunningState): void {
  mkdirSync(path.dirname(runningStateFile(root)), { recursive: true });
  writeFileSync(runningStateFile(root), `${JSON.stringify(state, null, 2)}\n`);
}

/** Removes the file if it is still this process's (a second start on other ports may have written its own since). */
export function removeRunningState(root: string, pid = process.pid): void {
  if (readRunningState(root)?.pid === pid) rmSync(runningStateFile(root), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running system's record, or undefined when there is none or its starter is gone. */
export function readRunningState(root: string): RunningState | undefined {
  let state: RunningState;
  try {
    state = JSON.parse(readFileSync(runningStateFile(root), 'utf8')) as RunningState;
  } catch {
    return undefined;
  }
  return Number.isInteger(state.pid) && state.pid > 0 && alive(state.pid) ? state : undefined;
}

/**
 * Fills the variables the services' config reads (DATABASE_URL, REDIS_URL, REDIS_PREFIX, and SMTP_URL with
 * MAIL_INBOX_URL when the system runs a local mail catcher, so the CLI's mails reach the same inbox) from the running
 * system's record where `env` leaves them unset; a per-service database URL counts as set. Answers the record, if any.
 */
export function adoptRunningState(root: string, env: NodeJS.ProcessEnv = process.env): RunningState | undefined {
  const state = readRunningState(root);
  if (!state) return undefined;
  if (env.DATABASE_URL === undefined && env.CERTIFICATE_DATABASE_URL === undefined && env.MOBILITY_DATABASE_URL === undefined) env.DATABASE_URL = state.databaseUrl;
  env.REDIS_URL ??= state.redisUrl;
  env.REDIS_PREFIX ??= state.redisPrefix;
  if (state.mail && env.SMTP_URL === undefined) Object.assign(env, { SMTP_URL: state.mail.smtpUrl, MAIL_INBOX_URL: env.MAIL_INBOX_URL ?? state.mail.inboxUrl });
  return state;
}
