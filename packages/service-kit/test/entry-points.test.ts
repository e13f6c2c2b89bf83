import { spawnSync } from 'node:child_process';
import path from 'node:path';

const packageDir = path.resolve(__dirname, '..');

/** The packages a fresh node process has loaded after requiring `specifier` (sources, as under tsx). */
function packagesLoadedBy(specifier: string): string[] {
  const script = `require(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const result = spawnSync(process.execPath, ['--conditions=source', '--require', 'tsx/cjs', '-e', script], { cwd: packageDir, encoding: 'utf8', timeout: 30000 });
  expect(result.stderr).toBe('');
  const files = JSON.parse(result.stdout) as string[];
  return [...new Set(files.flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(file)?.[1] ?? []))];
}

const DRIVERS = ['knex', 'pg', 'ioredis'];

describe('service-kit entry points', () => {
  it('loads no database or Redis driver for the config entry', () => {
    const loaded = packagesLoadedBy('@platform/service-kit/config');
    expect(loaded).toContain('zod');
    for (const driver of DRIVERS) expect(loaded).not.toContain(driver);
  });

  it('loads no database or Redis driver for the logger, errors and auth entries', () => {
    for (const entry of ['logger', 'errors', 'auth']) {
      const loaded = packagesLoadedBy(`@platform/service-kit/${entry}`);
      for (const driver of DRIVERS) expect(loaded).not.toContain(driver);
    }
  });

  it('loads knex and pg for the db entry, ioredis for the redis entry, and everything through the root barrel', () => {
    expect(packagesLoadedBy('@platform/service-kit/db')).toEqual(expect.arrayContaining(['knex', 'pg']));
    expect(packagesLoadedBy('@platform/service-kit/redis')).toContain('ioredis');
    expect(packagesLoadedBy('@platform/service-kit')).toEqual(expect.arrayContaining(DRIVERS));
  });
});
