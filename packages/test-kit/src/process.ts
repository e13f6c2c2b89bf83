import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts a TypeScript entry point with tsx; workspace packages resolve to their sources (the "source" condition). */
export function spawnTs(cwd: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs an entry point to its end (killed after `timeoutMs`) and collects what it printed. */
export function runTsToEnd(cwd: string, entry: string, env: NodeJS.ProcessEnv, timeoutMs = 20000): Promise<ProcessResult> {
  const child = spawnTs(cwd, entry, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
