import { randomBytes } from 'node:crypto';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { startGateway, testRedis } from './helpers';
import type { RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

let certificate: Fake;
let mobility: Fake;
let gateway: RunningGateway;
let redis: ReturnType<typeof testRedis>;

beforeAll(async () => {
  certificate = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'certificate', path: req.url }));
  mobility = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
  redis = testRedis('gateway_proxy');
  // With the rate limiter on, as in production: it must not change what is proxied.
  gateway = await startGateway({ certificate: certificate.url, mobility: mobility.url }, { timeoutMs: 500, redis });
});
afterAll(async () => {
  await Promise.all([gateway.close(), certificate.close(), mobility.close()]);
  await redis.close();
});

const routed: Array<[string, string]> = [
  ['/api/v1/credits', 'certificate'],
  ['/api/v1/credits?x=1', 'certificate'],
  ['/api/v1/verify/ABCD-EFGH', 'certificate'],
  ['/webhooks/payments/gateway-a', 'certificate'],
  ['/credentials/ABCDEF-GHJKMN-PQRSTU', 'certificate'],
  ['/credentials/ABCDEF-GHJKMN-PQRSTU/document.png', 'certificate'],
  ['/credentials/ABCDEF-GHJKMN-PQRSTU/credential.json', 'certificate'],
  ['/credentials/verify', 'certificate'],
  ['/credentials/status/1', 'certificate'],
  ['/credentials/assets/credentials.js', 'certificate'],
  ['/.well-known/did.json', 'certificate'],
  ['/.well-known/jwks.json', 'certificate'],
  ['/issuers/org_abc/did.json', 'certificate'],
  ['/api/v1/estimates', 'mobility'],
  ['/api/v1/rides/ride_123/cancel', 'mobility'],
  ['/api/v1/deliveries', 'mobility'],
  ['/api/v1/webhooks/whe_1/deliveries', 'mobility'],
  ['/api/v1/events?type=ride.completed&limit=5', 'mobility'],
  ['/api/v1/event-pass-programs', 'mobility'],
  ['/api/v1/event-pass-programs/evp_1/passes?limit=5', 'mobility'],
  ['/api/v1/event-passes/EVT-ABCD-EFGH-JKMNP/revoke', 'mobility'],
  ['/api/v1/sandbox/rides/ride_1/advance', 'mobility'],
  ['/api/v1/sandbox/deliveries/dlv_1/advance', 'mobility'],
  ['/driver/v1/offers', 'mobility'],
  ['/track/q3X9kP2mZ7vR4tYw8bN6cD1e', 'mobility'],
  ['/track/q3X9kP2mZ7vR4tYw8bN6cD1e/status', 'mobility'],
  ['/track/assets/tracking.js', 'mobility'],
];

describe('gateway routing', () => {
  it.each(routed)('sends %s to the %s service with path and query intact', async (path, upstream) => {
    const res = await fetch(gateway.url + path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ upstream, path });
  });

  it.each(['/', '/credentials', '/credentialsx/ABC', '/api/v1/creditsx', '/api/v1/ridesx', '/api/v1/event-passesx', '/api/v1/event-pass-programsx/1', '/api/v1/eventsx', '/admin/v1/api-keys', '/api/v2/credits', '/driver/v2/offers', '/track', '/trackx/abc', '/api/v1/sandboxx/rides', '/.well-known/', '/.well-known/did.json/x', '/.well-known/security.txt', '/issuers', '/issuersx/org_abc/did.json'])(
    'answers %s with a JSON 404 and never calls an upstream',
    async (path) => {
      const before = certificate.requests.length + mobility.requests.length;
      const res = await fetch(gateway.url + path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
      expect(certificate.requests.length + mobility.requests.length).toBe(before);
    },
  );

  it('passes any POST body to the upstream byte for byte, with its headers', async () => {
    const body = randomBytes(64 * 1024);
    const res = await fetch(`${gateway.url}/webhooks/payments/gateway-a`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=latin1', 'X-Gateway-Signature': 'abc' },
      body,
    });
    expect(res.status).toBe(200);
    const received = certificate.requests.at(-1)!;
    expect(received.method).toBe('POST');
    expect(Buffer.compare(received.body, body)).toBe(0);
    expect(received.headers['content-type']).toBe('application/json; charset=latin1');
    expect(received.headers['x-gateway-signature']).toBe('abc');
  });

  it('keeps the caller X-Request-Id on the way in and out, and makes one when absent', async () => {
    const res = await fetch(`${gateway.url}/api/v1/credits`, { headers: { 'X-Request-Id': 'req-42' } });
    expect(res.headers.get('x-request-id')).toBe('req-42');
    expect(certificate.requests.at(-1)!.headers['x-request-id']).toBe('req-42');
    const generated = await fetch(`${gateway.url}/api/v1/credits`);
    const id = generated.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(certificate.requests.at(-1)!.headers['x-request-id']).toBe(id);
  });

  it('answers 504 JSON when the upstream does not answer in time', async () => {
    mobility.setReply(() => undefined); // never answers
    try {
      const res = await fetch(`${gateway.url}/api/v1/rides/ride_1`);
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ error: 'The mobility service did not answer in time', code: 'upstream_timeout' });
    } finally {
      mobility.setReply((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
    }
  });
});

describe('gateway with one upstream down', () => {
  it('answers 502 JSON for the stopped service while the other keeps working, and readyz says which is down', async () => {
    const down = await startFakeServer(() => undefined);
    const deadUrl = down.url;
    await down.close();
    const partial = await startGateway({ certificate: deadUrl, mobility: mobility.url });
    try {
      const failed = await fetch(`${partial.url}/api/v1/credits`);
      expect(failed.status).toBe(502);
      expect(await failed.json()).toMatchObject({ error: 'The certificate service is unavailable', code: 'upstream_unavailable' });
      const ok = await fetch(`${partial.url}/api/v1/estimates`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
      expect(ok.status).toBe(200);
      const ready = await fetch(`${partial.internalUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { certificate: 'down', mobility: 'up' } });
    } finally {
      await partial.close();
    }
  });

  it('reports ready when both upstreams answer /readyz with 200', async () => {
    const res = await fetch(`${gateway.internalUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up', redis: 'up' } });
    const health = await fetch(`${gateway.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
