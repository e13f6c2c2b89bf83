// Shared jest settings: swc transforms TypeScript (type-checking is `pnpm typecheck`'s job).
// Workspace packages resolve to their TypeScript sources through the "source" export condition, so tests need no build:
// jest's resolver gets it from customExportConditions, processes the tests spawn get it from NODE_OPTIONS, and jest's own
// process (global set-up and teardown) from the resolver hook below.
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');

const SOURCE_CONDITION = '--conditions=source';
if (!(process.env.NODE_OPTIONS ?? '').includes(SOURCE_CONDITION)) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${SOURCE_CONDITION}`.trim();
}

/** The "source" target of a workspace package's export, or undefined for anything else. */
function workspaceSource(request, parent) {
  const match = /^(@platform\/[^/]+)(\/.+)?$/.exec(request);
  if (!match || !parent?.filename) return undefined;
  for (const dir of Module._nodeModulePaths(path.dirname(parent.filename))) {
    const packageDir = path.join(dir, match[1]);
    const manifest = path.join(packageDir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const target = JSON.parse(fs.readFileSync(manifest, 'utf8')).exports?.[`.${match[2] ?? ''}`]?.source;
    // The real path, not the node_modules symlink: jest transforms nothing under node_modules.
    return target ? path.join(fs.realpathSync(packageDir), target) : undefined;
  }
  return undefined;
}

if (!Module._resolveFilename.workspaceSource) {
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    return workspaceSource(request, parent) ?? resolveFilename.call(this, request, parent, ...rest);
  };
  Module._resolveFilename.workspaceSource = true;
}

module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // A ceiling, not a timing claim: CI runs three suites side by side on two cores, with browsers and whole systems
  // started by some tests, and PDF rendering or a spawned CLI can take tens of seconds there.
  testTimeout: 90000,
};
