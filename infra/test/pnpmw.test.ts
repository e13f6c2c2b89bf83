/**
 * ./pnpmw, the wrapper the README's two commands go through, run as on a machine whose only runtime is the system's
 * Node: PATH=/usr/bin:/bin (Debian's Node 20) and an empty home. No test downloads Node: the cache is seeded with this
 * test's own Node 24 and pnpm (symbolic links), or filled by a stand-in `npm` that records what it was asked to install
 * and links the same two. The user who bypasses the wrapper gets pnpm's engine refusal before any download, and the
 * one line naming ./pnpmw from `pnpm start`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const SYSTEM_PATH = '/usr/bin:/bin';
const PINNED_PNPM = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { packageManager: string }).packageManager.replace(/^pnpm@/, '');
const { nodeTooOldMessage } = require(path.join(root, 'scripts/node-version.cjs')) as { nodeTooOldMessage(version: string): string | undefined };

const systemNode = spawnSync('node', ['--version'], { env: { PATH: SYSTEM_PATH }, encoding: 'utf8' }).stdout?.trim() ?? '';
/** These tests need what the issue describes: a system Node older than the engines (Debian's 20 here). */
const describeWithOldSystemNode = systemNode && nodeTooOldMessage(systemNode) ? describe : describe.skip;

/** The pnpm package running this suite (pnpm's npm_execpath, else the pnpm on PATH), e.g. …/lib/node_modules/pnpm. */
function pnpmPackage(): string {
  const execPath = process.env.npm_execpath?.endsWith('pnpm.cjs') ? process.env.npm_execpath : execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim();
  const dir = path.resolve(realpathSync(execPath), '../..');
  expect((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string })).toMatchObject({ name: 'pnpm', version: PINNED_PNPM });
  return dir;
}

/** Lays out `<cacheRoot>/node24` as `npm install --prefix … node@24` and `npm i -g --prefix …/node pnpm@…` would. */
const SEED_NODE_24 = (cacheRoot: string, pnpmDir: string) => {
  const nodeDir = path.join(cacheRoot, 'node24', 'node_modules', 'node');
  mkdirSync(path.join(nodeDir, 'bin'), { recursive: true });
  mkdirSync(path.join(nodeDir, 'lib', 'node_modules'), { recursive: true });
  symlinkSync(process.execPath, path.join(nodeDir, 'bin', 'node'));
  symlinkSync(pnpmDir, path.join(nodeDir, 'lib', 'node_modules', 'pnpm'));
  symlinkSync('../lib/node_modules/pnpm/bin/pnpm.cjs', path.join(nodeDir, 'bin', 'pnpm'));
};

/** A stand-in npm: logs its arguments, and for `node@…` / `pnpm@…` links this test's Node and pnpm where npm would put them. */
const FAKE_NPM = `#!/bin/sh
echo "$*" >> "$NPM_LOG"
prefix=; spec=
while [ $# -gt 0 ]; do case $1 in --prefix) prefix=$2; shift ;; -*) ;; *) spec=$1 ;; esac; shift; done
case $spec in
  node@*) mkdir -p "$prefix/node_modules/node/bin" && ln -s "$REAL_NODE" "$prefix/node_modules/node/bin/node" ;;
  pnpm@*) mkdir -p "$prefix/bin" "$prefix/lib/node_modules" && ln -s "$REAL_PNPM" "$prefix/lib/node_modules/pnpm" && ln -s ../lib/node_modules/pnpm/bin/pnpm.cjs "$prefix/bin/pnpm" ;;
esac
`;

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pnpmw-'));
  made.push(dir);
  return dir;
}
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function pnpmw(args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(path.join(root, 'pnpmw'), args, { cwd: root, encoding: 'utf8', env, timeout: 120_000 });
}

describeWithOldSystemNode(`./pnpmw with the system's Node (${systemNode}) first on PATH and an empty home`, () => {
  it('runs the pinned pnpm on Node 24 from ~/.cache/partner-platform/node24 (where .ci/run always put it), without a word', () => {
    const home = tempDir();
    SEED_NODE_24(path.join(home, '.cache', 'partner-platform'), pnpmPackage());

    const version = pnpmw(['--version'], { PATH: SYSTEM_PATH, HOME: home });
    expect({ status: version.status, stdout: version.stdout, stderr: version.stderr }).toEqual({ status: 0, stdout: `${PINNED_PNPM}\n`, stderr: '' });

    const node = pnpmw(['exec', 'node', '-p', 'process.version'], { PATH: SYSTEM_PATH, HOME: home });
    expect(node.stderr).toBe('');
    expect(node.status).toBe(0);
    expect(node.stdout.trim().split('\n').at(-1)).toMatch(/^v24\.\d+\.\d+$/);
  });

  it('fetches Node 24 from the npm registry and the pinned pnpm beside it once, saying so in one line; the next run reuses them', () => {
    const home = tempDir();
    const bin = path.join(tempDir(), 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'npm'), FAKE_NPM);
    chmodSync(path.join(bin, 'npm'), 0o755);
    const log = path.join(home, '..', `${path.basename(home)}.npm.log`);
    made.push(log);
    const env = { PATH: `${bin}:${SYSTEM_PATH}`, HOME: home, NPM_LOG: log, REAL_NODE: process.execPath, REAL_PNPM: pnpmPackage() };
    const cache = path.join(home, '.cache', 'partner-platform');

    const first = pnpmw(['--version'], env);
    expect(first.stdout).toBe(`${PINNED_PNPM}\n`);
    expect(first.stderr.trim().split('\n')).toEqual([
      `pnpmw: Node ${systemNode} is too old for this project: downloading Node 24 LTS and pnpm ${PINNED_PNPM} from the npm registry (once; cached in ${cache})`,
    ]);
    expect(first.status).toBe(0);
    const installs = readFileSync(log, 'utf8').trim().split('\n');
    expect(installs).toHaveLength(2);
    expect(installs[0]).toMatch(new RegExp(`install --no-save --prefix ${cache}/\\.node24\\.\\w+ node@24$`));
    expect(installs[1]).toMatch(new RegExp(`install --global --prefix ${cache}/\\.node24\\.\\w+/node_modules/node pnpm@${PINNED_PNPM.replaceAll('.', '\\.')}$`));
    // Renamed into place as a whole: no half-installed folder is left beside it.
    expect(existsSync(path.join(cache, 'node24', 'node_modules', 'node', 'bin', 'pnpm'))).toBe(true);
    expect(execFileSync('ls', ['-A', cache], { encoding: 'utf8' }).trim()).toBe('node24');

    const second = pnpmw(['--version'], env);
    expect({ status: second.status, stdout: second.stdout, stderr: second.stderr }).toEqual({ status: 0, stdout: `${PINNED_PNPM}\n`, stderr: '' });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('leaves a plain `pnpm install` on that Node to stop at the engines, before anything is downloaded', () => {
    const project = tempDir();
    for (const file of ['package.json', '.npmrc']) copyFileSync(path.join(root, file), path.join(project, file));
    const result = spawnSync('node', [path.join(pnpmPackage(), 'bin', 'pnpm.cjs'), 'install', '--offline', '--store-dir', path.join(project, 'store')], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: SYSTEM_PATH, HOME: project },
    });
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain('ERR_PNPM_UNSUPPORTED_ENGINE');
    expect(existsSync(path.join(project, 'node_modules'))).toBe(false);
    // pnpm lays out the store's folders first; not one file (package) is in them.
    const store = path.join(project, 'store');
    expect(existsSync(store) ? readdirSync(store, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()) : []).toEqual([]);
  });

  it('ends `pnpm start` without the wrapper (its first step) with one line naming ./pnpmw', () => {
    const result = spawnSync('node', ['scripts/build-if-stale.cjs'], { cwd: root, encoding: 'utf8', env: { PATH: SYSTEM_PATH } });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Node ${systemNode.slice(1)} is too old: this project needs Node 22.15 or newer: run pnpm through \`./pnpmw\` (\`./pnpmw start\`, \`./pnpmw test\`), which fetches Node 24 LTS once.\n`);
  });
});
