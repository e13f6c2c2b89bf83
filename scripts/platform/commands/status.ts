/**
 * `pnpm platform status` (like `supabase status`): whether this checkout's `pnpm start` runs, each of its processes with
 * its PID, where to reach it, where its data lives, and the versions in use. Always exit 0: "not running" is an answer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { redactUrl } from '@platform/service-kit/db';
import { dataFolder, defaultClusterFolders, readCheckoutData } from '../../checkout-data';
import { processState } from '../../process-identity';
import { readRunningRecord, starterRuns, workspaceRoot, type RunningRecord } from '../../running-state';
import type { CommandSpec } from '../cli';

const root = workspaceRoot(__dirname);

/** `12 MB` (du's own count of the folder), or undefined when du is missing or the folder unreadable. */
function sizeOf(dir: string): string | undefined {
  try {
    const kb = Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\t')[0]);
    return kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${kb} kB`;
  } catch {
    return undefined;
  }
}

/** This checkout's embedded Postgres clusters that exist: the default places and any recorded one. */
export function embeddedClusters(checkout: string): string[] {
  const { inCheckout, system } = defaultClusterFolders(checkout);
  return [...new Set([inCheckout, system, ...readCheckoutData(checkout).embeddedPostgres])].filter((dir) => existsSync(dir));
}

export const shown = (dir: string) => (dir.startsWith(root + path.sep) ? path.relative(root, dir) : dir);

async function postgresVersion(url: string): Promise<string | undefined> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return ((await client.query('show server_version')).rows[0] as { server_version: string }).server_version;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisVersion(url: string): Promise<string | undefined> {
  const { createRedis } = await import('@platform/service-kit/redis');
  const redis = createRedis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1];
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

function platformVersion(): string {
  return (JSON.parse(readFileSync(path.join(root, 'gateway', 'package.json'), 'utf8')) as { version: string }).version;
}

type StarterState = 'running' | 'starting' | 'killed' | 'not running';

function starterState(record: RunningRecord | undefined): StarterState {
  if (!record) return 'not running';
  if (!starterRuns(record)) return 'killed';
  return record.phase === 'starting' ? 'starting' : 'running';
}

export const status: CommandSpec = {
  name: 'status',
  summary: "what of this checkout's pnpm start runs (processes, PIDs), where (URLs), its data folders and versions",
  synopsis: '',
  details: [
    'Reads .data/running.json (written by `pnpm start`) and checks each recorded process by PID and start time.',
    'Exit 0 whether or not the platform runs.',
  ],
  flags: {},
  async run({ out }) {
    const record = readRunningRecord(root);
    const state = starterState(record);
    const processes = (record?.processes ?? []).map((p) => ({ name: p.name, pid: p.pid, alive: processState(p) !== 'gone' }));
    const reachable = state === 'running' || state === 'starting';
    const gateway = reachable ? record?.gatewayUrl ?? (record?.ports ? `http://127.0.0.1:${record.ports.gateway}` : undefined) : undefined;
    const urls = gateway
      ? { gateway, dashboard: `${gateway}/dashboard`, apiReference: `${gateway}/docs`, mailInbox: record?.mail?.inboxUrl ?? null }
      : undefined;
    const data = readCheckoutData(root);
    const clusters = embeddedClusters(root).map((dir) => ({ path: dir, size: sizeOf(dir) ?? null, inUse: record?.postgresDataDir === dir }));
    const liveStores = state !== 'not running' && processes.some((p) => p.alive) ? record : undefined;
    const versions = {
      node: process.version,
      platform: platformVersion(),
      postgres: (liveStores?.databaseUrl && (await postgresVersion(liveStores.databaseUrl))) || null,
      redis: (liveStores?.redisUrl && (await redisVersion(liveStores.redisUrl))) || null,
    };
    const leftovers = state === 'killed' ? processes.filter((p) => p.alive) : [];
    const summary = {
      running: 'pnpm start of this checkout runs',
      starting: 'pnpm start of this checkout is starting',
      killed: leftovers.length
        ? `pnpm start was killed; ${leftovers.length} of its processes still run: the next \`pnpm start\` stops them (or \`kill ${leftovers.map((p) => p.pid).join(' ')}\`)`
        : 'not running (the last pnpm start was killed; nothing of it runs)',
      'not running': 'not running',
    }[state];
    const human = [
      `Partner platform in ${root}: ${summary}`,
      ...(record && state !== 'not running' ? [`  ${'pnpm start'.padEnd(18)} pid ${record.pid}   ${state === 'killed' ? 'gone' : 'alive'}${record.startedAt ? `   (started ${record.startedAt})` : ''}`] : []),
      ...processes.map((p) => `  ${p.name.padEnd(18)} pid ${p.pid}   ${p.alive ? 'alive' : 'gone'}`),
      ...(urls
        ? [
            `  ${'gateway'.padEnd(18)} ${urls.gateway}`,
            `  ${'dashboard'.padEnd(18)} ${urls.dashboard}`,
            `  ${'API reference'.padEnd(18)} ${urls.apiReference}`,
            ...(urls.mailInbox ? [`  ${'mail inbox'.padEnd(18)} ${urls.mailInbox}`] : []),
          ]
        : []),
      ...(record?.databaseUrl ? [`  ${'postgres'.padEnd(18)} ${redactUrl(record.databaseUrl)}${record.embedded?.postgres ? '   (embedded)' : ''}`] : []),
      ...(record?.redisUrl ? [`  ${'redis'.padEnd(18)} ${redactUrl(record.redisUrl)}   (prefix ${record.redisPrefix})${record.embedded?.redis ? '   (redis-server of pnpm start)' : ''}`] : []),
      `  ${'data'.padEnd(18)} ${existsSync(dataFolder(root)) ? shown(dataFolder(root)) : `${shown(dataFolder(root))} (not created yet)`}`,
      ...clusters.map((c) => `  ${''.padEnd(18)} ${shown(c.path)}   (embedded Postgres cluster${c.size ? `, ${c.size}` : ''})`),
      ...data.databases.map((d) => `  ${'database'.padEnd(18)} ${redactUrl(d.url)}   (created by pnpm start of this checkout)`),
      `  ${'versions'.padEnd(18)} Node ${versions.node}, platform ${versions.platform}${versions.postgres ? `, Postgres ${versions.postgres}` : ''}${versions.redis ? `, Redis ${versions.redis}` : ''}`,
      ...(clusters.length || data.databases.length ? ['  `pnpm platform reset` removes this data (once stopped).'] : []),
    ];
    out.result(
      {
        checkout: root,
        state,
        starter: record ? { pid: record.pid, alive: state !== 'killed' && state !== 'not running', startedAt: record.startedAt ?? null } : null,
        processes,
        urls: urls ?? null,
        stores: record?.databaseUrl ? { postgres: redactUrl(record.databaseUrl), redis: record.redisUrl ? redactUrl(record.redisUrl) : null, redisPrefix: record.redisPrefix ?? null, embedded: record.embedded ?? null } : null,
        data: { folder: dataFolder(root), embeddedPostgres: clusters, databases: data.databases },
        versions,
      },
      human,
    );
  },
};
