/**
 * The gateway serves the services' built descriptions (`services/<name>/dist/openapi.json`): before the tests, each
 * service writes its description from its sources, as its build does from the compiled code.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export default async function writeServiceDescriptions(): Promise<void> {
  await Promise.all(
    ['certificate', 'mobility'].map((service) => {
      const packageDir = path.join(__dirname, '..', '..', 'services', service);
      return run(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(packageDir, 'scripts', 'write-openapi.cjs'), '--from-source'], { cwd: packageDir, timeout: 120000 });
    }),
  );
}
