import path from 'node:path';
import { runTsToEnd } from '@platform/test-kit';

const serviceDir = path.resolve(__dirname, '..');

describe('mobility start-up', () => {
  it.each(['src/server.ts', 'src/worker.ts'])('%s exits 1 with one line naming a bad variable', async (entry) => {
    const result = await runTsToEnd(serviceDir, entry, { DISPATCH_RADIUS_M: '-5' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^mobility(-worker)?: Invalid environment variable DISPATCH_RADIUS_M: must be positive \(got "-5"\)$/);
  });

  it('says in one line where Redis was expected and how to start it', async () => {
    const result = await runTsToEnd(serviceDir, 'src/server.ts', { REDIS_URL: 'redis://127.0.0.1:1', PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Redis is not reachable at redis://127.0.0.1:1 (ECONNREFUSED): start a local server (redis-server --daemonize yes) or run `docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d postgres redis`.',
    );
  });
});
