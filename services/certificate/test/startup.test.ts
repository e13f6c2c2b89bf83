import path from 'node:path';
import { runTsToEnd } from '@platform/test-kit';

const serviceDir = path.resolve(__dirname, '..');

describe('certificate service start-up', () => {
  it('exits 1 with one line naming a bad variable', async () => {
    const result = await runTsToEnd(serviceDir, 'src/server.ts', { PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('certificate: Invalid environment variable PORT: must be a port number (got "abc")');
  });

  it('refuses the development JWT secret in production', async () => {
    const result = await runTsToEnd(serviceDir, 'src/server.ts', { NODE_ENV: 'production', JWT_SECRET: '' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^certificate: Invalid environment variable JWT_SECRET: the development default is refused/);
  });

  it('says in one line where Postgres was expected and how to start it', async () => {
    const result = await runTsToEnd(serviceDir, 'src/server.ts', { DATABASE_URL: 'postgres://postgres:pw@127.0.0.1:1/partner_platform', PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Postgres is not reachable at postgres://postgres:***@127.0.0.1:1/partner_platform (ECONNREFUSED): start a local server (pg_ctlcluster <version> main start) or run `docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d postgres redis`.',
    );
  });
});
