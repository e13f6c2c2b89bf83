// Runs `pnpm build` when a package's compiled output is missing or older than its sources, so `pnpm start` (and
// `pnpm platform`, through scripts/platform.cjs) after an edit runs the edited code and a second one does not wait for
// tsc. Plain CommonJS: it runs before any build.
require('./node-version.cjs').requireSupportedNode();
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
// Each compiled unit: the folder its build reads and the build info tsc writes (incremental) into its dist/.
const units = [{ dir: root, sources: ['scripts'] }];
for (const name of fs.readdirSync(path.join(root, 'packages'))) units.push({ dir: path.join(root, 'packages', name), sources: ['src'] });
// A service's build also writes its description (dist/openapi.json) from openapi.yaml.
for (const name of fs.readdirSync(path.join(root, 'services'))) units.push({ dir: path.join(root, 'services', name), sources: ['src', 'openapi.yaml'] });
units.push({ dir: path.join(root, 'gateway'), sources: ['src'] });
// The dashboard is built by Vite, not tsc: its index.html, rewritten by every build, marks when it was built.
const dashboard = { dir: path.join(root, 'packages', 'dashboard'), sources: ['src', 'index.html', 'vite.config.ts'], marker: path.join('dist', 'index.html') };

function newestChange(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).filter((name) => name !== 'dist' && name !== 'node_modules').map((name) => newestChange(path.join(file, name))));
}

function buildInfo(unit) {
  return path.join(unit.dir, unit.marker ?? path.join('dist', '.tsbuildinfo'));
}

const stale = [...units.filter((unit) => fs.existsSync(path.join(unit.dir, 'tsconfig.build.json'))), ...(fs.existsSync(dashboard.dir) ? [dashboard] : [])]
  .filter((unit) => {
    const built = fs.statSync(buildInfo(unit), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const inputs = [...unit.sources, 'package.json', 'tsconfig.build.json'].map((name) => newestChange(path.join(unit.dir, name)));
    return Math.max(...inputs, newestChange(path.join(root, 'tsconfig.base.json'))) > built;
  });

/** Builds when stale: one line before and one after (pnpm build's own output only when it fails), on stderr. */
function buildIfStale() {
  if (stale.length === 0) return;
  const started = Date.now();
  process.stderr.write('Building the workspace (first start or sources changed)…\n');
  const result = spawnSync('pnpm', ['build'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.stderr.write(`pnpm build failed (exit ${result.status ?? result.signal}); fix the error above and start again.\n`);
    process.exit(result.status || 1);
  }
  // tsc leaves the build info untouched when nothing it emits changed; mark every unit built now.
  const now = new Date();
  for (const unit of stale) if (fs.existsSync(buildInfo(unit))) fs.utimesSync(buildInfo(unit), now, now);
  process.stderr.write(`Built in ${duration(Date.now() - started)}.\n`);
}

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

module.exports = { buildIfStale };
if (require.main === module) buildIfStale();
