import type { ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { clearRedisPrefix, listen, newRedisPrefix, sendJson, spawnTs, startFakeServer, waitFor, type WaitOptions } from '@platform/test-kit';

const gatewayDir = path.resolve(__dirname, '..');
const IN_FLIGHT = 200;
let PORT = 0;
const prefix = newRedisPrefix('gateway_shutdown');

type Fake = Awaited<ReturnType<typeof startFakeServer>>;
let upstream: Fake;
const held: ServerResponse[] = [];
let gateway: ChildProcess;
let output = '';
const gatewayOutput: WaitOptions = { context: () => `gateway output:\n${output.slice(-2000)}` };

/** A new connection (no pooled socket) to the gateway: resolves true when it is refused. */
function refusesNewConnections(): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port: PORT, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', () => resolve(true));
  });
}

beforeAll(async () => {
  const probe = await listen(() => undefined); // a free port for the child
  PORT = probe.port;
  await probe.close();
  upstream = await startFakeServer((_req, res) => void held.push(res)); // answers only when the test says so
  gateway = spawnTs(gatewayDir, 'src/server.ts', {
    PORT: String(PORT),
    CERTIFICATE_URL: upstream.url,
    MOBILITY_URL: upstream.url,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'info',
    METRICS_PORT: '0', // any free port: tests run side by side
  });
  gateway.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  gateway.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => output.includes('gateway listening'), 'the gateway to listen', gatewayOutput);
});
afterAll(async () => {
  if (gateway.exitCode === null) gateway.kill('SIGKILL');
  await upstream.close();
  await clearRedisPrefix(prefix);
});

describe('gateway graceful shutdown', () => {
  it('finishes all in-flight requests after SIGTERM, refuses new connections, and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    const responses = Promise.all(
      Array.from({ length: IN_FLIGHT }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/rides/ride_${i}`);
        return { status: res.status, body: (await res.json()) as unknown };
      }),
    );
    await waitFor(() => held.length === IN_FLIGHT, `all ${IN_FLIGHT} requests to reach the upstream`, gatewayOutput);

    gateway.kill('SIGTERM');
    await waitFor(() => output.includes('shutting down'), 'the gateway to start shutting down', gatewayOutput);
    expect(await refusesNewConnections()).toBe(true);
    expect(gateway.exitCode).toBeNull(); // still draining

    held.forEach((res, n) => sendJson(res, 200, { n }));
    const results = await responses;
    expect(results.map((r) => r.status)).toEqual(Array(IN_FLIGHT).fill(200));
    expect(await exited).toBe(0);
  }, 60000);
});
