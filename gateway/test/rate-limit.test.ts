import { createLogger } from '@platform/service-kit/logger';
import { sendJson, startFakeServer, type RunningServer } from '@platform/test-kit';
import { createRateLimitRedis } from '../src/server-factory';
import { captureLines, startGateway, testRedis } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const LIMIT = 5;
let certificate: Fake;
let mobility: Fake;
let redis: ReturnType<typeof testRedis>;
let gateways: RunningServer[] = [];
let prefixCount = 0;

beforeAll(async () => {
  certificate = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'certificate', path: req.url }));
  mobility = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
  redis = testRedis('gateway_rl');
});
afterEach(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  gateways = [];
});
afterAll(async () => {
  await Promise.all([certificate.close(), mobility.close(), redis.close()]);
});

/** Two gateway processes' worth of apps sharing one Redis prefix, fresh for each test. */
async function twoGateways(): Promise<[RunningServer, RunningServer]> {
  const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
  const upstreams = { certificate: certificate.url, mobility: mobility.url };
  const pair = [await startGateway(upstreams, { redis: shared, perMinute: LIMIT }), await startGateway(upstreams, { redis: shared, perMinute: LIMIT })];
  gateways.push(...pair);
  return pair as [RunningServer, RunningServer];
}

function rateHeaders(res: Response) {
  return {
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  };
}

describe('gateway rate limits', () => {
  it('shares one budget per API key across gateway processes and answers 429 with Retry-After once it is spent', async () => {
    const [a, b] = await twoGateways();
    const auth = { Authorization: 'Bearer ck_partner_one_token' };
    const remaining: Array<string | null> = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await fetch(`${(i % 2 ? b : a).url}/api/v1/credits`, { headers: auth });
      expect(res.status).toBe(200);
      const headers = rateHeaders(res);
      expect(headers.limit).toBe(String(LIMIT));
      expect(headers.reset).toBeGreaterThanOrEqual(1);
      expect(headers.reset).toBeLessThanOrEqual(60);
      remaining.push(headers.remaining);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    const before = certificate.requests.length;
    const limited = await fetch(`${b.url}/api/v1/credits`, { headers: auth });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/application\/json/);
    expect(await limited.json()).toEqual({ error: 'Rate limit exceeded', code: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(rateHeaders(limited)).toEqual({ limit: String(LIMIT), remaining: '0', reset: retryAfter });
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    expect(certificate.requests.length).toBe(before);
  });

  it('gives each API key its own budget, whether sent as Bearer or X-API-KEY, and keeps only a hash of it in Redis', async () => {
    const [a] = await twoGateways();
    for (let i = 0; i <= LIMIT; i++) await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { Authorization: 'Bearer mk_spent_key' } });
    const spent = await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { 'X-API-KEY': 'mk_spent_key' } });
    expect(spent.status).toBe(429);

    const other = await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { 'X-API-KEY': 'mk_other_key' } });
    expect(other.status).toBe(200);
    expect(rateHeaders(other).remaining).toBe(String(LIMIT - 1));
    const anonymous = await fetch(`${a.url}/api/v1/rides/ride_1`);
    expect(anonymous.status).toBe(200);
    expect(rateHeaders(anonymous).remaining).toBe(String(LIMIT - 1));

    const keys = await redis.client.keys(`${redis.prefix}_${prefixCount}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toMatch(/mk_spent_key|mk_other_key/);
  });

  it('limits payment webhooks per client IP, whatever Authorization they carry', async () => {
    const [a, b] = await twoGateways();
    for (let i = 0; i < LIMIT; i++) {
      const res = await fetch(`${(i % 2 ? b : a).url}/webhooks/payments/gateway-a`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer different_${i}` },
        body: '{}',
      });
      expect(res.status).toBe(200);
    }
    const limited = await fetch(`${a.url}/webhooks/payments/gateway-b`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer yet_another' }, body: '{}' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: 'Rate limit exceeded', code: 'rate_limited' });
  });

  it('lets requests through and logs a warning when Redis is unreachable', async () => {
    const deadRedis = createRateLimitRedis('redis://127.0.0.1:1', { retryStrategy: () => null });
    deadRedis.on('error', () => undefined);
    await new Promise((resolve) => deadRedis.once('end', resolve)); // refused, and not retrying
    const logs = captureLines();
    const gateway = await startGateway(
      { certificate: certificate.url, mobility: mobility.url },
      { redis: { client: deadRedis, prefix: 'unused' }, perMinute: 1, logger: createLogger('gateway', 'warn', logs.stream) },
    );
    gateways.push(gateway);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gateway.url}/api/v1/credits`, { headers: { Authorization: 'Bearer ck_any' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    expect(logs.lines().filter((line) => line.msg === 'rate limiter unavailable (Redis); letting requests through')).toHaveLength(1);
    expect(logs.text()).not.toContain('ck_any');
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'down' } });
  });

  it('reports Redis in /readyz', async () => {
    const [a] = await twoGateways();
    const ready = await fetch(`${a.url}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
  });
});
