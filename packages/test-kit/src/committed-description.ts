import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { shapeDifferences } from './description-shape';

type Json = Record<string, unknown>;

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');
/** How many differing places a report lists before it only counts the rest. */
const LISTED = 40;

/**
 * Why a committed description (`services/<name>/openapi.json`, `gateway/openapi.json`: the published contract, where a
 * change to what partners see is a diff in review) is not the one its sources build now, as lines for a test failure:
 * empty when the file holds the same document with its keys in the same order. Otherwise the file and the command that
 * rewrites it, then each differing place as `path: committed → built` (whatever the key order), or that only the key
 * order differs. The file's exact bytes (indentation, trailing newline) are checked by `generate.ts --check`.
 */
export function staleDescription(file: string, built: Json): string[] {
  const name = path.relative(REPOSITORY_ROOT, file);
  const rewrite = 'run `pnpm build` (or `pnpm build:descriptions`) at the repository root and commit it';
  if (!existsSync(file)) return [`${name} is missing: ${rewrite}`];
  const committed = JSON.parse(readFileSync(file, 'utf8')) as Json;
  // What the file would hold: JSON drops undefined values and keeps the built key order.
  const now = JSON.parse(JSON.stringify(built)) as Json;
  if (JSON.stringify(committed) === JSON.stringify(now)) return [];
  const differences = shapeDifferences(committed, now);
  const listed = differences.length === 0 ? ['the same document, its keys in another order'] : differences.slice(0, LISTED);
  const more = differences.length > LISTED ? [`… and ${differences.length - LISTED} more`] : [];
  return [`${name} is stale (not the description its sources build now): ${rewrite}. Committed → built:`, ...listed, ...more];
}
