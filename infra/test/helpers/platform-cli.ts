import { execFile } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(__dirname, '../../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pnpm platform …` as its package script does (`node scripts/platform.cjs`: the compiled CLI, built first when
 * stale), without pnpm's banner: the test reads stdout as a script would. `cwd` runs another checkout's CLI (a copy).
 */
export function platform(args: string[], env: NodeJS.ProcessEnv, cwd = root): Promise<CliResult> {
  // An undefined value removes the variable.
  const childEnv = Object.fromEntries(Object.entries({ ...process.env, LOG_LEVEL: 'warn', ...env }).filter(([, value]) => value !== undefined));
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/platform.cjs', ...args], { cwd, env: childEnv, timeout: 60000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs a command with --json and returns its one JSON object (failing with the command's stderr otherwise). */
export async function platformJson<T = Record<string, unknown>>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  const result = await platform([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`pnpm platform ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}
