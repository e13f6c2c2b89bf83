import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Registry } from 'prom-client';
import { listen, spawnTs, spawnablePort, type RunningServer, waitFor } from '@platform/test-kit';
import { createWorkerHealthServer } from '../src/platform/worker-health';
import { createTestContext, type TestContext } from './helpers/context';

const serviceDir = path.resolve(__dirname, '..');

describe('the worker process with WORKER_METRICS_PORT', () => {
  let worker: ChildProcess;
  let output = '';
  let base: string;

  beforeAll(async () => {
    const port = await spawnablePort();
    base = `http://127.0.0.1:${port}`;
    worker = spawnTs(serviceDir, 'src/worker.ts', {
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
      WORKER_METRICS_PORT: String(port),
      LOG_LEVEL: 'info',
    });
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes('worker started') && output.includes('worker health and metrics listening'), 'the worker to start', { context: () => output.slice(-2000) });
  }, 30000);

  afterAll(() => {
    if (worker.exitCode === null) worker.kill('SIGKILL');
  });

  it('answers /healthz 200 naming both running BullMQ workers', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', workers: { 'dispatch-timers': 'running', 'webhook-deliveries': 'running' } });
  });

  it('serves its webhook delivery counters on /metrics and a JSON 404 elsewhere', async () => {
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain('webhook_delivery_attempts_total');
    const unknown = await fetch(`${base}/admin`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
  });

  it('stops listening and exits 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});

describe('the worker health endpoint', () => {
  let ctx: TestContext;
  let server: RunningServer;

  beforeAll(() => {
    ctx = createTestContext();
  });

  afterAll(async () => {
    await server?.close();
    await ctx.close();
  });

  it('answers 503 naming a BullMQ worker that has stopped', async () => {
    const dispatch = ctx.startDispatchWorker();
    await dispatch.waitUntilReady();
    server = await listen(createWorkerHealthServer([dispatch], new Registry()));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await dispatch.close();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      workers: { 'dispatch-timers': 'stopped' },
      error: 'Not running: dispatch-timers',
      code: 'not_running',
    });
  });
});
