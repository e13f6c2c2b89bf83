import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const nodeVersion = require(path.join(root, 'scripts/node-version.cjs')) as {
  MINIMUM: string;
  nodeTooOldMessage(version: string, minimum?: string): string | undefined;
};

/** Runs one of the root's plain CommonJS scripts under this node, told it is `version`. No PATH: nothing else can start. */
function runAs(version: string, script: string) {
  const fake = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: ${JSON.stringify(version)} } });`;
  return spawnSync(process.execPath, ['-e', `${fake} require(${JSON.stringify(path.join(root, script))});`], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: '', npm_config_user_agent: 'pnpm/10.34.8 npm/? node/v20.20.2 linux x64' },
  });
}

describe('the Node runtime', () => {
  it('is Node 22 or newer, and at least what the root package.json engines ask for', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    expect(nodeVersion.nodeTooOldMessage(process.versions.node)).toBeUndefined();
  });

  it('reads its minimum from the root engines, which every workspace package that names engines repeats', () => {
    const manifests = ['package.json', ...['gateway', 'infra', ...['packages', 'services'].flatMap((folder) => readdirSync(path.join(root, folder)).map((name) => `${folder}/${name}`))].map((folder) => `${folder}/package.json`)];
    const engines = Object.fromEntries(
      manifests
        .filter((file) => existsSync(path.join(root, file)))
        .map((file) => [file, (JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { engines?: { node?: string } }).engines?.node])
        .filter(([, node]) => node !== undefined),
    );
    expect(engines).toMatchObject({ 'package.json': `>=${nodeVersion.MINIMUM}`, 'packages/client/package.json': `>=${nodeVersion.MINIMUM}` });
    expect(new Set(Object.values(engines))).toEqual(new Set([`>=${nodeVersion.MINIMUM}`]));
    expect(Number(nodeVersion.MINIMUM.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it('names Node 24 for nvm, fnm and volta, and turns on engine-strict and off the update box for pnpm', () => {
    expect(readFileSync(path.join(root, '.nvmrc'), 'utf8').trim()).toBe('24');
    expect(readFileSync(path.join(root, '.node-version'), 'utf8').trim()).toBe('24');
    const npmrc = readFileSync(path.join(root, '.npmrc'), 'utf8').split('\n').map((line) => line.trim());
    expect(npmrc).toEqual(expect.arrayContaining(['engine-strict=true', 'update-notifier=false']));
  });

  it('compares versions part by part, with or without the leading v', () => {
    expect(nodeVersion.nodeTooOldMessage('v20.20.2', '22.15')).toMatch(/^Node 20\.20\.2 is too old: this project needs Node 22\.15 or newer/);
    expect(nodeVersion.nodeTooOldMessage('22.14.0', '22.15')).toBeDefined();
    expect(nodeVersion.nodeTooOldMessage('22.15.0', '22.15')).toBeUndefined();
    expect(nodeVersion.nodeTooOldMessage('22.100.0', '22.15')).toBeUndefined();
    expect(nodeVersion.nodeTooOldMessage('v24.21.0', '22.15')).toBeUndefined();
    expect(nodeVersion.nodeTooOldMessage('9.0.0', '22.15')).toBeDefined();
  });

  it.each([
    ['pnpm install (the root preinstall)', 'scripts/check-pnpm.cjs'],
    ['pnpm start (the build check that runs first)', 'scripts/build-if-stale.cjs'],
  ])('an old Node ends %s with one line naming what to install, exit 1', (_name, script) => {
    const result = runAs('20.20.2', script);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Node 20\.20\.2 is too old: this project needs Node \d+\.\d+ or newer: run pnpm through `\.\/pnpmw` \(`\.\/pnpmw start`, `\.\/pnpmw test`\), which fetches Node 24 LTS once\.$/);
  });

  it('lets a current Node through the preinstall', () => {
    const result = runAs(process.versions.node, 'scripts/check-pnpm.cjs');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
