/**
 * A second checkout of this repository for tests of `pnpm start`'s real default path: the starter finds its checkout
 * from its own file (dist/scripts/start.js) and keeps its state there (`.data/postgres`, `.data/running.json`), so the
 * test runs the starter of a checkout whose `.data` does not exist yet, in a folder of the mode the test picks (700, as
 * /root or a `mktemp -d` clone; or 755). No variable or flag meant for tests is involved.
 *
 * Why a copy and not `git clone`: a clone needs `pnpm install` and `pnpm build` (minutes). The copy holds real copies of
 * what locates the checkout and its state (the top-level files, scripts/ and the compiled dist/, `cp -a` so that
 * build-if-stale sees the same modification times and does not rebuild) and symbolic links to this checkout for the rest
 * (node_modules, packages, services, gateway, …: code the starter only runs). `.git` and `.data` are left out.
 */
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repositoryRoot = path.resolve(__dirname, '../../..');
const COPIED = new Set(['scripts', 'dist']);
const LEFT_OUT = new Set(['.git', '.data']);

export interface CheckoutCopy {
  /** The copy's root: `<parent>/partner-platform`. */
  root: string;
  /** The folder holding it (mode `parentMode`). */
  parent: string;
  remove(): void;
}

/** cpSync keeps the files' times, not the folders' (each file copied in changes its folder's): set them afterwards. */
function keepFolderTimes(from: string, to: string): void {
  const stat = lstatSync(from);
  if (!stat.isDirectory()) return;
  for (const name of readdirSync(from)) keepFolderTimes(path.join(from, name), path.join(to, name));
  utimesSync(to, stat.atime, stat.mtime);
}

export function copyCheckout(parentMode: number): CheckoutCopy {
  const parent = mkdtempSync(path.join(tmpdir(), 'checkout-'));
  chmodSync(parent, parentMode);
  const root = path.join(parent, 'partner-platform');
  mkdirSync(root, { mode: 0o755 });
  chmodSync(root, 0o755);
  for (const entry of readdirSync(repositoryRoot, { withFileTypes: true })) {
    if (LEFT_OUT.has(entry.name)) continue;
    const from = path.join(repositoryRoot, entry.name);
    const to = path.join(root, entry.name);
    if (entry.isFile() || COPIED.has(entry.name)) {
      cpSync(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
      keepFolderTimes(from, to);
    } else symlinkSync(from, to);
  }
  return { root, parent, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
