import { Agent, request } from 'node:http';
import { generateApiToken } from '@platform/api-keys';
import { createLogger } from '@platform/service-kit/logger';
import { DEV_JWT_SECRET } from '@platform/service-kit/config';
import { signAdminToken, signDriverToken } from '@platform/service-kit/admin-auth';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { createRateLimitRedis } from '../src/server-factory';
import { captureLines, dashboardToken, proxiedRequests, startGateway, testRedis, withSessionCheck } from './helpers';
import type { RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const LIMIT = 5;
const PARTNER_ONE = generateApiToken('ck_');
const SPENT_KEY = generateApiToken('mk_');
const OTHER_KEY = generateApiToken('mk_');
let certificate: Fake;
let mobility: Fake;
let redis: ReturnType<typeof testRedis>;
let gateways: RunningGateway[] = [];
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
async function twoGateways(): Promise<[RunningGateway, RunningGateway]> {
  const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
  const upstreams = { certificate: certificate.url, mobility: mobility.url };
  const pair = [await startGateway(upstreams, { redis: shared, perMinute: LIMIT }), await startGateway(upstreams, { redis: shared, perMinute: LIMIT })];
  gateways.push(...pair);
  return pair as [RunningGateway, RunningGateway];
}

function rateHeaders(res: Response) {
  return {
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  };
}

/** GET on a given keep-alive agent (one connection with maxSockets 1), answering the status. */
function getOn(agent: Agent, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('gateway rate limits', () => {
  it('keeps each key’s own budget when one keep-alive connection carries several keys', async () => {
    const [a] = await twoGateways();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = generateApiToken('ck_');
    const second = generateApiToken('ck_');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) statuses.push(await getOn(agent, `${a.url}/api/v1/credits`, first));
      expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
      // The same connection, another key: a budget of its own, and the first key stays refused.
      expect(await getOn(agent, `${a.url}/api/v1/credits`, second)).toBe(200);
      expect(await getOn(agent, `${a.url}/api/v1/credits`, first)).toBe(429);
      expect(await getOn(agent, `${a.url}/api/v1/credits`, second)).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('shares one budget per API key across gateway processes and answers 429 with Retry-After once it is spent', async () => {
    const [a, b] = await twoGateways();
    const auth = { Authorization: `Bearer ${PARTNER_ONE}` };
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
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await limited.json()).toMatchObject({ error: 'Rate limit exceeded', code: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(rateHeaders(limited)).toEqual({ limit: String(LIMIT), remaining: '0', reset: retryAfter });
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    expect(certificate.requests.length).toBe(before);
  });

  it('gives each API key its own budget, whether sent as Bearer or X-API-KEY, and keeps only a hash of it in Redis', async () => {
    const [a] = await twoGateways();
    for (let i = 0; i <= LIMIT; i++) await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { Authorization: `Bearer ${SPENT_KEY}` } });
    const spent = await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { 'X-API-KEY': SPENT_KEY } });
    expect(spent.status).toBe(429);

    const other = await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { 'X-API-KEY': OTHER_KEY } });
    expect(other.status).toBe(200);
    expect(rateHeaders(other).remaining).toBe(String(LIMIT - 1));
    // A test-mode key (mk_test_…) is a well-formed key too, with its own budget.
    const testKey = await fetch(`${a.url}/api/v1/rides/ride_1`, { headers: { Authorization: `Bearer ${generateApiToken('mk_test_')}` } });
    expect(testKey.status).toBe(200);
    expect(rateHeaders(testKey).remaining).toBe(String(LIMIT - 1));
    const anonymous = await fetch(`${a.url}/api/v1/rides/ride_1`);
    expect(anonymous.status).toBe(200);
    expect(rateHeaders(anonymous).remaining).toBe(String(LIMIT - 1));

    const keys = await redis.client.keys(`${redis.prefix}_${prefixCount}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain(SPENT_KEY);
    expect(keys.join(' ')).not.toContain(OTHER_KEY);
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
    expect(await limited.json()).toMatchObject({ error: 'Rate limit exceeded', code: 'rate_limited' });
  });

  it('limits the public credential page per client address, even when each request carries a different well-formed key', async () => {
    const [a, b] = await twoGateways();
    for (let i = 0; i < LIMIT; i++) {
      const res = await fetch(`${(i % 2 ? b : a).url}/credentials/ABCDEF-GHJKMN-PQRSTU`, { headers: { Authorization: `Bearer ${generateApiToken('ck_')}` } });
      expect(res.status).toBe(200);
    }
    const limited = await fetch(`${a.url}/credentials/ABCDEF-GHJKMN-PQRSTU/document.png`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ status: 429, error: 'Rate limit exceeded', code: 'rate_limited' });
  });

  it('limits the public tracking page per client address, even when each request carries a different well-formed key', async () => {
    const [a, b] = await twoGateways();
    for (let i = 0; i < LIMIT; i++) {
      const res = await fetch(`${(i % 2 ? b : a).url}/track/q3X9kP2mZ7vR4tYw8bN6cD1e/status`, { headers: { Authorization: `Bearer ${generateApiToken('mk_')}` } });
      expect(res.status).toBe(200);
    }
    const limited = await fetch(`${a.url}/track/q3X9kP2mZ7vR4tYw8bN6cD1e`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ status: 429, error: 'Rate limit exceeded', code: 'rate_limited' });
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
    const ready = await fetch(`${gateway.internalUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'down' } });
  });

  it('gives junk keys no budget of their own: 12 junk tokens from one address get 5 answers from the service, then 429', async () => {
    const refusing = await startFakeServer((_req, res) => sendJson(res, 401, { error: 'Invalid or revoked API key', code: 'invalid_api_key' }));
    try {
      const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
      const gateway = await startGateway({ certificate: refusing.url, mobility: refusing.url }, { redis: shared, perMinute: LIMIT });
      gateways.push(gateway);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const headers: Record<string, string> = i % 2 ? { 'X-API-KEY': `junk-${i}` } : { Authorization: `Bearer junk_token_${i}` };
        statuses.push((await fetch(`${gateway.url}/api/v1/credits`, { headers })).status);
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(12 - LIMIT).fill(429)]);
      expect(refusing.requests).toHaveLength(LIMIT);
    } finally {
      await refusing.close();
    }
  });

  it('counts every key the service refuses against the client address, so well-formed unknown keys run out too', async () => {
    const refusing = await startFakeServer((_req, res) => sendJson(res, 401, { error: 'Invalid or revoked API key', code: 'invalid_api_key' }));
    try {
      const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
      const gateway = await startGateway({ certificate: refusing.url, mobility: refusing.url }, { redis: shared, perMinute: LIMIT });
      gateways.push(gateway);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push((await fetch(`${gateway.url}/api/v1/rides/ride_1`, { headers: { Authorization: `Bearer ${generateApiToken('mk_')}` } })).status);
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(12 - LIMIT).fill(429)]);
      const limited = await fetch(`${gateway.url}/api/v1/rides/ride_1`, { headers: { Authorization: `Bearer ${generateApiToken('mk_')}` } });
      expect(await limited.json()).toMatchObject({ error: 'Rate limit exceeded', code: 'rate_limited' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await refusing.close();
    }
  });

  describe('refused or malformed credentials on routes that never answer 401', () => {
    const madeUpJwt = (i: number) => signDriverToken(`drv_${i}`, `made-up-secret-${i}-0123456789abcdef`);

    async function gatewayAnswering(status: number) {
      const upstream = await startFakeServer((_req, res) => sendJson(res, status, { error: 'Validation failed', code: 'validation_failed' }));
      const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
      const gateway = await startGateway({ certificate: upstream.url, mobility: upstream.url }, { redis: shared, perMinute: LIMIT });
      gateways.push(gateway);
      return { gateway, upstream };
    }

    it.each([
      ['driver sign-in with JWT-shaped junk', '/driver/v1/sessions', (i: number) => `Bearer ${madeUpJwt(i)}`],
      ['driver refresh with JWT-shaped junk', '/driver/v1/sessions/refresh', (i: number) => `Bearer ${madeUpJwt(i)}`],
      ['driver sign-in with made-up well-formed keys', '/driver/v1/sessions', () => `Bearer ${generateApiToken('mk_')}`],
      ['a partner route answering 400 to JWT-shaped junk', '/api/v1/rides', (i: number) => `Bearer ${madeUpJwt(i)}`],
    ])('%s: the address is limited (429) after %s', async (_label, path, authorization) => {
      const { gateway, upstream } = await gatewayAnswering(400);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) {
          const res = await fetch(gateway.url + path, { method: 'POST', headers: { Authorization: authorization(i), 'Content-Type': 'application/json' }, body: '{}' });
          statuses.push(res.status);
          await res.arrayBuffer();
        }
        expect(statuses).toEqual([...Array(LIMIT).fill(400), ...Array(12 - LIMIT).fill(429)]);
        expect(upstream.requests).toHaveLength(LIMIT);
      } finally {
        await upstream.close();
      }
    });

    it('invalid dashboard tokens, and ours naming no sign-in, are charged to the address: 401 until its budget is spent, then 429, and no service sees them', async () => {
      const { gateway, upstream } = await gatewayAnswering(200);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) {
          const junk = [
            `not-a-jwt-${i}`,
            signAdminToken({ sub: `acc_${i}`, org: 'org_x', role: 'owner' }, `made-up-secret-${i}-0123456789`),
            madeUpJwt(i),
            signAdminToken({ sub: `acc_${i}`, org: 'org_x', role: 'owner' }, DEV_JWT_SECRET, { ttlSeconds: 900 }), // ours, without `sid`: 401 session_required
          ][i % 4]!;
          const res = await fetch(`${gateway.url}/dashboard/api/certificate/certificates`, { headers: { Authorization: `Bearer ${junk}` } });
          statuses.push(res.status);
          await res.arrayBuffer();
        }
        expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(12 - LIMIT).fill(429)]);
        expect(upstream.requests).toHaveLength(0);
        // A good dashboard token from the same address is refused too, like a good key after many bad ones.
        const good = dashboardToken({ sub: 'acc_1', org: 'org_1', role: 'owner' }, DEV_JWT_SECRET, { ttlSeconds: 900 });
        const limited = await fetch(`${gateway.url}/dashboard/api/certificate/certificates`, { headers: { Authorization: `Bearer ${good}` } });
        expect(limited.status).toBe(429);
        expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
      } finally {
        await upstream.close();
      }
    });

    it('a driver token signed with our secret keeps a budget of its own', async () => {
      const { gateway, upstream } = await gatewayAnswering(200);
      try {
        const driver = { Authorization: `Bearer ${signDriverToken('drv_1', DEV_JWT_SECRET)}` };
        const status = async (path: string, headers: Record<string, string> = {}) => {
          const res = await fetch(gateway.url + path, { headers });
          await res.arrayBuffer();
          return res.status;
        };
        for (let i = 0; i < LIMIT; i++) expect(await status('/driver/v1/offers', driver)).toBe(200);
        // The address's own budget is untouched by the driver's requests.
        expect(await status('/track/trk_1')).toBe(200);
        expect(await status('/driver/v1/offers', driver)).toBe(429);
      } finally {
        await upstream.close();
      }
    });
  });

  it('limits one client address across the keys it sends (RATE_LIMIT_PER_ADDRESS_PER_MINUTE), other addresses unaffected', async () => {
    const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
    const upstreams = { certificate: certificate.url, mobility: mobility.url };
    const settings = { redis: shared, perMinute: LIMIT, config: { TRUST_PROXY_HOPS: 1, RATE_LIMIT_PER_ADDRESS_PER_MINUTE: 8 } };
    const [a, b] = [await startGateway(upstreams, settings), await startGateway(upstreams, settings)];
    gateways.push(a, b);
    const [first, second, third] = [generateApiToken('ck_'), generateApiToken('mk_'), generateApiToken('ck_')];
    const from = (gateway: RunningGateway, token: string, address: string) =>
      fetch(`${gateway.url}/api/v1/credits`, { headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': address } });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await from(i % 2 ? b : a, first, '203.0.113.7')).status);
    for (let i = 0; i < 3; i++) statuses.push((await from(i % 2 ? a : b, second, '203.0.113.7')).status);
    expect(statuses).toEqual(Array<number>(8).fill(200));
    // The second key has spent 3 of its own 5, yet the address has spent its 8.
    const limited = await from(a, second, '203.0.113.7');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await limited.json()).toMatchObject({ status: 429, error: 'Rate limit exceeded', code: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(rateHeaders(limited)).toEqual({ limit: '8', remaining: '0', reset: retryAfter });
    expect((await from(b, third, '203.0.113.7')).status).toBe(429); // a fresh key from that address too
    // Another address: the same keys (under their own budgets) pass.
    const elsewhere = await from(b, third, '198.51.100.20');
    expect(elsewhere.status).toBe(200);
    expect(rateHeaders(elsewhere)).toMatchObject({ limit: String(LIMIT), remaining: String(LIMIT - 2) });
    expect((await from(a, second, '198.51.100.20')).status).toBe(200);
  });

  it('buckets IPv6 clients by /64', async () => {
    const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
    const gateway = await startGateway(
      { certificate: certificate.url, mobility: mobility.url },
      { redis: shared, perMinute: LIMIT, config: { TRUST_PROXY_HOPS: 1 } },
    );
    gateways.push(gateway);
    const statuses: number[] = [];
    for (let i = 1; i <= LIMIT + 1; i++) {
      statuses.push((await fetch(`${gateway.url}/api/v1/credits`, { headers: { 'X-Forwarded-For': `2001:db8:1:2::${i.toString(16)}` } })).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
    const sameSlash64 = await fetch(`${gateway.url}/api/v1/credits`, { headers: { 'X-Forwarded-For': '2001:0db8:0001:0002:ffff:1:2:3' } });
    expect(sameSlash64.status).toBe(429);
    const otherSlash64 = await fetch(`${gateway.url}/api/v1/credits`, { headers: { 'X-Forwarded-For': '2001:db8:1:3::1' } });
    expect(otherSlash64.status).toBe(200);
  });

  it('grants hits far from the limit in-process yet keeps the budget shared and exact near the limit', async () => {
    const shared = { client: redis.client, prefix: `${redis.prefix}_${++prefixCount}` };
    const upstreams = { certificate: certificate.url, mobility: mobility.url };
    const a = await startGateway(upstreams, { redis: shared, perMinute: 100 });
    const b = await startGateway(upstreams, { redis: shared, perMinute: 100 });
    gateways.push(a, b);
    const auth = { Authorization: `Bearer ${generateApiToken('ck_')}` };
    for (let i = 0; i < 90; i++) expect((await fetch(`${a.url}/api/v1/credits`, { headers: auth })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a sends its batch to Redis (every 50 ms)
    const fromB = await fetch(`${b.url}/api/v1/credits`, { headers: auth });
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('ratelimit-remaining')).toBe('9');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await fetch(`${(i % 2 ? a : b).url}/api/v1/credits`, { headers: auth })).status);
    expect(statuses).toEqual([...Array(9).fill(200), 429, 429, 429]);
  });

  it('reports Redis in /readyz', async () => {
    const [a] = await twoGateways();
    const ready = await fetch(`${a.internalUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
  });
});

describe('dashboard requests per account', () => {
  it("counts every token of one account together, whatever organization or sign-in it names: past the minute's budget 429 rate_limited, nothing forwarded; another account goes on", async () => {
    const upstream = await startFakeServer(withSessionCheck((_req, res) => sendJson(res, 200, { ok: true })));
    const shared = { client: redis.client, prefix: `${redis.prefix}_accounts` };
    const gateway = await startGateway({ certificate: upstream.url, mobility: upstream.url }, { redis: shared, perMinute: 1000, config: { DASHBOARD_RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: 3 } });
    gateways.push(gateway);
    try {
      const as = (sub: string, org: string) => ({ Authorization: `Bearer ${dashboardToken({ sub, org, role: 'owner' }, DEV_JWT_SECRET, { ttlSeconds: 900 })}` });
      const get = (headers: Record<string, string>) => fetch(`${gateway.url}/dashboard/api/certificate/certificates`, { headers });
      for (const org of ['org_1', 'org_2', 'org_3']) expect((await get(as('acc_flood', org))).status).toBe(200);
      const forwarded = proxiedRequests(upstream).length;
      const refused = await get(as('acc_flood', 'org_4'));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
      expect(proxiedRequests(upstream)).toHaveLength(forwarded);
      expect((await get(as('acc_bystander', 'org_5'))).status).toBe(200);
    } finally {
      await upstream.close();
    }
  });
});
