import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { spawnablePorts } from '@platform/test-kit';
import { withoutSourceCondition } from '@platform/service-kit/compiled-env';

const root = path.resolve(__dirname, '../../..');
export type Ports = { GATEWAY_PORT: string; GATEWAY_METRICS_PORT: string; CERTIFICATE_PORT: string; MOBILITY_PORT: string };

// Ports picked at run time, below the kernel's ephemeral range (see spawnablePort): fixed ones collide when several checkouts
// run their tests on one machine, and ephemeral ones can be taken by a parallel suite's outgoing connection before pnpm start binds them.
export async function freePorts(): Promise<Ports> {
  const [gateway, metrics, certificate, mobility] = (await spawnablePorts(4)).map(String) as [string, string, string, string];
  return { GATEWAY_PORT: gateway, GATEWAY_METRICS_PORT: metrics, CERTIFICATE_PORT: certificate, MOBILITY_PORT: mobility };
}

export interface Started {
  pnpm: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs the README's `pnpm start` as a terminal would: pnpm leads its own process group, so a Ctrl-C can be sent to the
 * whole group. Jest's source condition is left out of NODE_OPTIONS: the system runs compiled, with plain node.
 */
export function pnpmStart(env: NodeJS.ProcessEnv, args: string[] = [], cwd = root, command = 'pnpm'): Started {
  const nodeOptions = withoutSourceCondition(process.env.NODE_OPTIONS);
  const pnpm = spawn(command, ['start', ...args], { cwd, env: { ...process.env, NODE_OPTIONS: nodeOptions, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  pnpm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  pnpm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => pnpm.once('exit', (code) => resolve(code)));
  return { pnpm, output: () => output, exited };
}

export function waitForOutput(started: Started, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (started.output().includes(text)) {
        clearInterval(timer);
        resolve();
      } else if (started.pnpm.exitCode !== null || Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`"${text}" not printed:\n${started.output()}`));
      }
    }, 100);
    const deadline = Date.now() + timeoutMs;
  });
}

export async function answers(port: string): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** Waits until nothing answers on any of the ports (the processes are gone), or gives up after 30 s. */
export async function untilAllStopped(ports: Ports): Promise<string[]> {
  const deadline = Date.now() + 30000;
  for (;;) {
    const answering: string[] = [];
    for (const port of Object.values(ports)) if (await answers(port)) answering.push(port);
    if (answering.length === 0 || Date.now() > deadline) return answering;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

