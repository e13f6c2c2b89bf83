// `pnpm platform …`: the operator CLI from its compiled output (dist/scripts/platform.js, built first when stale), in
// this process: one node start-up instead of tsx compiling TypeScript on every command. Plain CommonJS: it runs before
// any build. Under jest or tsx, NODE_OPTIONS carries `--conditions=source` (workspace packages resolved to their
// TypeScript sources), which plain node cannot load: then the CLI runs in a child without it (see @platform/service-kit/compiled-env).
const { spawn } = require('node:child_process');
const path = require('node:path');

// V8's code cache on disk (node >= 22.1; a no-op before): later commands skip compiling the same modules again.
require('node:module').enableCompileCache?.();
require('./build-if-stale.cjs').buildIfStale();
const entry = path.join(__dirname, '..', 'dist', 'scripts', 'platform.js');
const SOURCE_CONDITION = /--conditions[= ]source\b/g;

if (!/--conditions[= ]source\b/.test(process.env.NODE_OPTIONS ?? '')) {
  process.argv.splice(1, 1, entry); // the CLI reads its arguments from process.argv.slice(2)
  require(entry);
} else {
  const env = { ...process.env, NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replace(SOURCE_CONDITION, '').trim() };
  const child = spawn(process.execPath, [entry, ...process.argv.slice(2)], { env, stdio: 'inherit' });
  // A Ctrl-C reaches the child too (same process group): it ends the command, and this process exits with its code.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
