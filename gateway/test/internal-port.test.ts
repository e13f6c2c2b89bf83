import { sendJson, startFakeServer } from '@platform/test-kit';
import { startGateway, type RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

let upstream: Fake;
let gateway: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeServer((req, res) => sendJson(res, 200, { path: req.url }));
  gateway = await startGateway({ certificate: upstream.url, mobility: upstream.url });
});
afterAll(async () => {
  await Promise.all([gateway.close(), upstream.close()]);
});

describe('gateway internal port', () => {
  it.each(['/metrics', '/readyz'])('does not serve %s on the public port (JSON 404)', async (path) => {
    const res = await fetch(gateway.url + path);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
  });

  it('serves /metrics, /readyz and /healthz on the internal port, with proxied requests counted by route', async () => {
    expect((await fetch(`${gateway.url}/api/v1/rides/ride_1`)).status).toBe(200);
    const metrics = await fetch(`${gateway.internalUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/rides"[^}]*\} 1/);
    const ready = await fetch(`${gateway.internalUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up' } });
    expect(await (await fetch(`${gateway.internalUrl}/healthz`)).json()).toEqual({ status: 'ok' });
  });

  it('keeps /healthz public', async () => {
    const res = await fetch(`${gateway.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
