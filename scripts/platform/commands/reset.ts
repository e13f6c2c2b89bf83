/**
 * `pnpm platform reset` (like `supabase db reset`, for the whole checkout): removes what `pnpm start` of this checkout
 * created and nothing else: its embedded Postgres clusters (the checkout's `.data/postgres`, its
 * `/var/lib/partner-platform/postgres-<hash>` as root, any PLATFORM_EMBEDDED_POSTGRES_DIR it used), the databases it
 * created on a machine Postgres with nothing configured (listed in `.data/created.json`; refused while anything is
 * connected to them), and the `.data` folder. Never while the platform, or what a killed start left, runs. Asks on a
 * terminal; `--yes` skips the question; without a terminal and without `--yes` it refuses with one line.
 */
import { existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { redactUrl } from '@platform/service-kit/db';
import { dataFolder, readCheckoutData } from '../../checkout-data';
import { earlierServer } from '../../embedded-postgres';
import { leftoversOf } from '../../leftovers';
import { killCommand } from '../../process-identity';
import { readRunningRecord, starterRuns, workspaceRoot } from '../../running-state';
import { CommandError, type CommandSpec } from '../cli';
import { embeddedClusters, shown } from './status';

const root = workspaceRoot(__dirname);

/** One line saying what of this checkout still runs, or undefined when nothing does. */
function stillRunning(clusters: string[]): string | undefined {
  const record = readRunningRecord(root);
  if (record && starterRuns(record)) return `the platform is running (pnpm start, pid ${record.pid}): stop it first (Ctrl-C in its terminal, or \`kill ${record.pid}\`)`;
  const left = record ? leftoversOf(record) : { alive: [], unverifiable: [] };
  const alive = [...left.alive, ...left.unverifiable];
  if (alive.length) {
    return `processes of a killed pnpm start still run (${alive.map((p) => `${p.name} pid ${p.pid}`).join(', ')}): stop them first with \`${killCommand(alive)}\` (or run \`pnpm start\`, which stops them, then Ctrl-C)`;
  }
  for (const dir of clusters) {
    const server = earlierServer(dir);
    if (server?.state === 'running') return `an embedded Postgres still serves ${shown(dir)} (pid ${server.pid}): stop it first with \`kill ${server.pid}\``;
  }
  return undefined;
}

/** Drops one database unless something is connected to it (another checkout may share it): answers why not, if not. */
async function dropUnlessInUse(url: string): Promise<string | undefined> {
  const { Client } = await import('pg');
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  target.pathname = '/postgres';
  const client = new Client({ connectionString: target.toString(), connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`drop database if exists "${name.replace(/"/g, '""')}"`);
    return undefined;
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return code === '55006' ? 'other sessions are connected to it (another checkout or program uses it)' : (code ?? message ?? String(error));
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function confirmed(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

export const reset: CommandSpec = {
  name: 'reset',
  summary: "remove this checkout's embedded Postgres data, the databases its pnpm start created and .data (asks first)",
  synopsis: '[--yes]',
  details: [
    'Only what pnpm start of this checkout created: its embedded Postgres clusters, databases it created on a machine',
    'Postgres with nothing configured (.data/created.json), and the .data folder. Databases named by DATABASE_URL and',
    'keys in a machine Redis are never touched. Refused while the platform (or what a killed start left) runs.',
    '--yes skips the question; without a terminal, --yes is required.',
  ],
  flags: { yes: 'boolean' },
  async run({ flags, out }) {
    const clusters = embeddedClusters(root);
    const running = stillRunning(clusters);
    if (running) throw new CommandError(`pnpm platform reset: ${running}.`);
    const databases = readCheckoutData(root).databases;
    const folder = existsSync(dataFolder(root)) ? dataFolder(root) : undefined;
    const plan = [
      ...clusters.map((dir) => `  embedded Postgres cluster  ${shown(dir)}`),
      ...databases.map((d) => `  database                   ${redactUrl(d.url)}   (created by pnpm start on ${d.createdAt})`),
      ...(folder ? [`  folder                     ${shown(folder)}   (running.json, created.json)`] : []),
    ];
    if (plan.length === 0) {
      out.result({ removed: [], dropped: [], kept: [] }, [`Nothing to reset: ${root} has no embedded data, databases of its own or .data folder.`]);
      return;
    }
    if (!flags.yes) {
      if (!process.stdin.isTTY) {
        throw new CommandError(`pnpm platform reset: no terminal to confirm on; run \`pnpm platform reset --yes\` to remove ${clusters.length} embedded Postgres cluster(s), ${databases.length} database(s) and .data of ${root}.`);
      }
      process.stderr.write(`This removes, for good, the data of ${root}:\n${plan.join('\n')}\n`);
      if (!(await confirmed('Remove it? [y/N] '))) throw new CommandError('pnpm platform reset: not confirmed; nothing removed.');
    }
    const removed: string[] = [];
    const dropped: string[] = [];
    const kept: { what: string; why: string }[] = [];
    for (const dir of clusters) {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
      out.line({ removed: dir }, `Removed ${shown(dir)} (embedded Postgres cluster)`);
    }
    for (const { url } of databases) {
      const why = await dropUnlessInUse(url);
      if (why) {
        kept.push({ what: url, why });
        out.line({ kept: url, why }, `Kept database ${redactUrl(url)}: ${why}`);
      } else {
        dropped.push(url);
        out.line({ dropped: url }, `Dropped database ${redactUrl(url)}`);
      }
    }
    // .data lists the databases it could not drop: kept then, so that a later reset finds them again.
    if (folder && kept.length === 0) {
      rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
      out.line({ removed: folder }, `Removed ${shown(folder)}`);
    }
    if (kept.length) throw new CommandError(`pnpm platform reset: ${kept.length} database(s) kept (see above); .data kept so that the next reset tries again.`);
    out.result({ removed, dropped, kept }, ['Reset done: the next `pnpm start` begins with empty databases.']);
  },
};
