import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

export const root = path.resolve(__dirname, '../..');

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** Starts a TypeScript entry point as its own process and waits until `readyUrl` answers (or it prints `ready`). */
export async function startProcess(entry: string, env: NodeJS.ProcessEnv, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
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

export async function load(label: string, options: autocannon.Options): Promise<LoadResult> {
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, pools, keep-alive sockets
  const result = await autocannon({ connections: 10, duration: 5, ...options });
  return { label, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

export function printTable(title: string, rows: LoadResult[], ratios: Array<[string, number, number]>): void {
  console.log(`\n${title}\n`);
  console.log('| target | requests/s | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.label} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  console.log('');
  for (const [name, ratio, target] of ratios) {
    console.log(`${name}: ${ratio.toFixed(2)} (target ≥ ${target}) ${ratio >= target ? 'OK' : 'BELOW TARGET'}`);
  }
}
