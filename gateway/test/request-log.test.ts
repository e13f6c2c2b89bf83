import type { ServerResponse } from 'node:http';
import { generateApiToken } from '@platform/api-keys';
import { createLogger } from '@platform/service-kit/logger';
import { sendJson, startFakeServer, type RunningServer } from '@platform/test-kit';
import { captureLines, startGateway, testRedis } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const TOKEN = generateApiToken('mk_');
let upstream: Fake;
let gateway: RunningServer;
let redis: ReturnType<typeof testRedis>;
const logs = captureLines();
const hung: ServerResponse[] = [];

beforeAll(async () => {
  upstream = await startFakeServer((req, res) => {
    if (req.url.startsWith('/api/v1/rides/hang')) return void hung.push(res); // answers only when the client has gone
    sendJson(res, 201, { path: req.url });
  });
  redis = testRedis('gateway_log');
  gateway = await startGateway(
    { certificate: upstream.url, mobility: upstream.url },
    { redis: { client: redis.client, prefix: redis.prefix }, logger: createLogger('gateway', 'info', logs.stream) },
  );
});
afterAll(async () => {
  await Promise.all([gateway.close(), upstream.close()]);
  await redis.close();
});

function requestLines() {
  return logs.lines().filter((line) => line.msg === 'request');
}

describe('gateway request log', () => {
  it('writes one JSON line per proxied request with id, method, route, status and duration, and never the token', async () => {
    const res = await fetch(`${gateway.url}/api/v1/rides/ride_123/cancel?secret=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'X-Request-Id': 'req-log-1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ pin: '4321' }),
    });
    expect(res.status).toBe(201);
    const lines = requestLines().filter((line) => line.request_id === 'req-log-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ service: 'gateway', method: 'POST', route: '/api/v1/rides', status: 201, level: 30 });
    expect(typeof lines[0]!.duration_ms).toBe('number');
    expect(lines[0]!.api_key_fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(logs.text()).not.toContain(TOKEN);
    expect(logs.text()).not.toContain('4321');
    expect(logs.text()).not.toMatch(/authorization/i);
  });

  it('logs the gateway’s own answers too, with the route unmatched for a 404', async () => {
    await fetch(`${gateway.url}/nowhere`, { headers: { 'X-Request-Id': 'req-log-2', 'X-API-KEY': TOKEN } });
    expect(requestLines().filter((line) => line.request_id === 'req-log-2')).toEqual([
      expect.objectContaining({ method: 'GET', route: 'unmatched', status: 404 }),
    ]);
    expect(logs.text()).not.toContain(TOKEN);
  });

  it('logs a client that hangs up before its answer as a 499 request, not as an upstream failure', async () => {
    const controller = new AbortController();
    const pending = fetch(`${gateway.url}/api/v1/rides/hang`, { headers: { 'X-Request-Id': 'req-log-3' }, signal: controller.signal }).catch(() => 'aborted');
    while (hung.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const upstreamClosed = new Promise((resolve) => hung[0]!.once('close', resolve));
    controller.abort();
    expect(await pending).toBe('aborted');
    await upstreamClosed; // the gateway dropped its upstream request too
    while (!requestLines().some((line) => line.request_id === 'req-log-3')) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestLines().filter((line) => line.request_id === 'req-log-3')).toEqual([expect.objectContaining({ status: 499, aborted: true })]);
    expect(logs.lines().filter((line) => line.msg === 'upstream failed')).toEqual([]);
  });
});
