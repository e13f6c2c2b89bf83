import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { runTsToEnd } from '@platform/test-kit';

const root = path.resolve(__dirname, '../..');
const strong = () => randomBytes(32).toString('base64');

// Each entry point refuses a known or short secret before it touches Postgres or Redis: one line naming the variable, exit 1.
describe('production start-up with a weak secret', () => {
  it.each([
    ['services/certificate', 'src/server.ts', 'certificate', { GATEWAY_A_SECRET_KEY: 'replace-with-gateway-a-secret-key' }, 'GATEWAY_A_SECRET_KEY'],
    ['services/certificate', 'src/db/migrate.ts', 'certificate', { JWT_SECRET: 'replace-with-at-least-32-random-characters' }, 'JWT_SECRET'],
    ['services/mobility', 'src/server.ts', 'mobility', { JWT_SECRET: 'compose-development-secret-change-me' }, 'JWT_SECRET'],
    ['services/mobility', 'src/worker.ts', 'mobility-worker', { WEBHOOK_SECRET_KEY: 'sixteen-bytes-ok' }, 'WEBHOOK_SECRET_KEY'],
  ])('%s %s exits 1 naming the variable', async (dir, entry, processName, weak, variable) => {
    const result = await runTsToEnd(path.join(root, dir), entry, { NODE_ENV: 'production', JWT_SECRET: strong(), ...weak });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(new RegExp(`^${processName}: Invalid environment variable ${variable}: [^\\n]+ when NODE_ENV=production \\(got a hidden value\\)$`));
    expect(result.stderr).not.toContain(Object.values(weak)[0]);
  });
});
