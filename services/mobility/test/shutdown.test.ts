import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { spawnTs, spawnablePort, waitFor } from '@platform/test-kit';

const serviceDir = path.resolve(__dirname, '..');

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

function env(port = 0) {
  return { DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_PREFIX: process.env.TEST_REDIS_PREFIX, PORT: String(port), LOG_LEVEL: 'info' };
}

describe('mobility processes on SIGTERM', () => {
  it('the API logs one line per request, closes its pools and exits 0', async () => {
    const port = await spawnablePort();
    const api = spawnTs(serviceDir, 'src/server.ts', env(port));
    const output = collect(api);
    const exited = new Promise<number | null>((resolve) => api.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output().includes('mobility service listening'), 'the API to listen', { context: () => output().slice(-2000) });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      const logLine = () => output().split('\n').find((l) => l.includes('"route":"/readyz"'));
      await waitFor(() => logLine() !== undefined, 'the request log line', { context: () => output().slice(-2000) });
      expect(JSON.parse(logLine()!)).toMatchObject({ method: 'GET', route: '/readyz', status: 200, msg: 'request' });
      api.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output()).toContain('"msg":"stopped"');
    } finally {
      if (api.exitCode === null) api.kill('SIGKILL');
    }
  });

  it('the worker closes its BullMQ workers and exits 0', async () => {
    const worker = spawnTs(serviceDir, 'src/worker.ts', env());
    const output = collect(worker);
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output().includes('worker started'), 'the worker to start', { context: () => output().slice(-2000) });
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output()).toContain('"msg":"stopped"');
    } finally {
      if (worker.exitCode === null) worker.kill('SIGKILL');
    }
  });
});
