/**
 * `pnpm bench:cli`: how long `pnpm platform` takes per command, as a person or a script runs it (`pnpm -s platform …`,
 * pnpm's own start-up included): `--help` (no database) and `org create` (module loading, connection, migrations check,
 * two inserts). It uses a database of its own on the configured Postgres (DATABASE_URL, else the running `pnpm start`'s,
 * else the default), dropped at the end; the first `org create` (creating the database and its tables) is not counted.
 * BENCH_CLI_RUNS (default 10) runs of each. Prints the figures; it asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DEFAULT_DATABASE_URL } from '@platform/service-kit/config';
import { dropDatabase } from '@platform/service-kit/db';
import { compiledEnv } from '@platform/service-kit/compiled-env';
import { readRunningState, workspaceRoot } from '../running-state';

const root = workspaceRoot(__dirname);
const runs = Number(process.env.BENCH_CLI_RUNS ?? 10);

function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const result = spawnSync('pnpm', ['-s', 'platform', ...args], { cwd: root, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`pnpm platform ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return ms;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, ms) => sum + ms, 0) / samples.length;
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const ms = (value: number) => `${Math.round(value)} ms`.padStart(8);
  return `${label.padEnd(28)} min ${ms(sorted[0]!)}  median ${ms(median)}  mean ${ms(mean)}  max ${ms(sorted.at(-1)!)}  (${samples.length} runs)`;
}

async function main(): Promise<void> {
  const database = new URL(process.env.DATABASE_URL ?? readRunningState(root)?.databaseUrl ?? DEFAULT_DATABASE_URL);
  database.pathname = `/bench_cli_${randomBytes(4).toString('hex')}`;
  const env = compiledEnv({ ...process.env, DATABASE_URL: database.toString(), LOG_LEVEL: 'warn' });
  const orgCreate = (i: number) => ['org', 'create', '--name', `Bench ${i}`, '--owner-email', `bench${i}@example.com`, '--quiet'];
  try {
    timed(['--help'], env); // builds first when stale
    timed(orgCreate(0), env); // creates the database and applies the migrations
    const help = Array.from({ length: runs }, () => timed(['--help'], env));
    const create = Array.from({ length: runs }, (_, i) => timed(orgCreate(i + 1), env));
    console.log(`pnpm platform on ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}:`);
    console.log(summary('pnpm -s platform --help', help));
    console.log(summary('pnpm -s platform org create', create));
  } finally {
    await dropDatabase(database.toString()).catch(() => undefined);
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
