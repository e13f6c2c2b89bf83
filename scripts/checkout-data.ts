/**
 * What `pnpm start` of this checkout created and which stores it last used, kept in `.data/created.json` (git-ignored,
 * kept across stops, unlike running.json): `pnpm platform reset` removes only what is listed here or lives in this
 * checkout's own embedded-Postgres folders, and `pnpm platform` knows, with nothing running, that the last start used an
 * embedded Postgres (so it never quietly opens another one). Addresses only: a password in a URL is left out.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CheckoutData {
  /** Databases `pnpm start` created on a Postgres that is not its own embedded one (with nothing configured). */
  databases: { url: string; createdAt: string }[];
  /** Clusters an embedded Postgres of this checkout has used (absolute folders). */
  embeddedPostgres: string[];
  /** The stores of the last start that got as far as settling them. */
  lastStores?: { postgres: { url: string; embedded: boolean }; redis?: { url: string; embedded: boolean } };
}

export const dataFolder = (root: string) => path.join(root, '.data');
export const checkoutDataFile = (root: string) => path.join(dataFolder(root), 'created.json');

/** Root's place for clusters of checkouts the `postgres` user cannot reach (see clusterLocation in embedded-postgres.ts). */
export const SYSTEM_CLUSTERS = '/var/lib/partner-platform';

/** The two places an embedded Postgres of this checkout puts its cluster unless PLATFORM_EMBEDDED_POSTGRES_DIR moves it. */
export function defaultClusterFolders(root: string): { inCheckout: string; system: string } {
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 12);
  return { inCheckout: path.join(root, '.data', 'postgres'), system: path.join(SYSTEM_CLUSTERS, `postgres-${hash}`) };
}

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

export function readCheckoutData(root: string): CheckoutData {
  try {
    const data = JSON.parse(readFileSync(checkoutDataFile(root), 'utf8')) as Partial<CheckoutData>;
    return { databases: data.databases ?? [], embeddedPostgres: data.embeddedPostgres ?? [], lastStores: data.lastStores };
  } catch {
    return { databases: [], embeddedPostgres: [] };
  }
}

function writeCheckoutData(root: string, data: CheckoutData): void {
  const file = checkoutDataFile(root);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify(data, null, 2)}\n`);
  renameSync(`${file}.${process.pid}`, file);
}

/** Adds what one start created or used; each database and folder is listed once. */
export function recordCheckoutData(root: string, change: { createdDatabases?: string[]; embeddedPostgres?: string; lastStores?: CheckoutData['lastStores'] }): void {
  const data = readCheckoutData(root);
  for (const url of change.createdDatabases ?? []) {
    const clean = withoutPassword(url);
    if (!data.databases.some((d) => d.url === clean)) data.databases.push({ url: clean, createdAt: new Date().toISOString() });
  }
  if (change.embeddedPostgres && !data.embeddedPostgres.includes(change.embeddedPostgres)) data.embeddedPostgres.push(change.embeddedPostgres);
  if (change.lastStores) {
    const { postgres, redis } = change.lastStores;
    data.lastStores = { postgres: { ...postgres, url: withoutPassword(postgres.url) }, redis: redis && { ...redis, url: withoutPassword(redis.url) } };
  }
  writeCheckoutData(root, data);
}
