import { parseConfig } from '@platform/service-kit/config';
import { listen, sendJson, startFakeServer } from '@platform/test-kit';
import { gatewayConfigSchema } from '../src/config';
import { startGateway, type RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

/** A fake replica that names itself in every answer and answers `/readyz` with `ready` (200) or 503. */
async function replica(name: string): Promise<Fake & { setReady(ready: boolean): void }> {
  let ready = true;
  const fake = await startFakeServer((req, res) => {
    if (req.url === '/readyz') return sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable' });
    sendJson(res, 200, { replica: name, method: req.method, body: req.body.toString() });
  });
  return Object.assign(fake, { setReady: (value: boolean) => void (ready = value) });
}

/** A port nothing listens on: a replica that is down. */
async function closedUrl(): Promise<string> {
  const probe = await listen(() => undefined);
  await probe.close();
  return probe.url;
}

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function gatewayOver(certificate: string[], mobility: string[]): Promise<RunningGateway> {
  const gateway = await startGateway({ certificate: certificate.join(','), mobility: mobility.join(',') }, 5000);
  running.push(gateway);
  return gateway;
}

async function replicas(...names: string[]) {
  const started = await Promise.all(names.map(replica));
  running.push(...started);
  return started;
}

describe('gateway over several replicas of a service (comma-separated upstream URLs)', () => {
  it('sends each request to the next replica in turn, the body intact', async () => {
    const [a, b, mobility] = await replicas('a', 'b', 'mobility');
    const gateway = await gatewayOver([a!.url, b!.url], [mobility!.url]);
    const answered: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${gateway.url}/webhooks/payments/gateway-a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"n":${i}}` });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { replica: string; body: string };
      expect(body.body).toBe(`{"n":${i}}`);
      answered.push(body.replica);
    }
    expect(answered).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(a!.requests).toHaveLength(3);
    expect(b!.requests).toHaveLength(3);
    expect(mobility!.requests).toHaveLength(0);
  });

  it('takes a request a replica refuses (it is down) to the next one: no request fails while one replica answers', async () => {
    const [up] = await replicas('up');
    const gateway = await gatewayOver([await closedUrl(), up!.url], [up!.url]);
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${gateway.url}/api/v1/credits`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ replica: 'up' });
    }
    expect(up!.requests).toHaveLength(4);
  });

  it('answers 502 upstream_unavailable (problem JSON) when every replica refuses', async () => {
    const gateway = await gatewayOver([await closedUrl(), await closedUrl()], [await closedUrl()]);
    const res = await fetch(`${gateway.url}/api/v1/rides`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ error: 'The mobility service is unavailable', code: 'upstream_unavailable' });
  });

  it('is ready only when every replica of every upstream is ready', async () => {
    const [a, b, mobility] = await replicas('a', 'b', 'mobility');
    const gateway = await gatewayOver([a!.url, b!.url], [mobility!.url]);
    const ready = await fetch(`${gateway.internalUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { certificate: 'up', mobility: 'up' } });
    b!.setReady(false);
    const unready = await fetch(`${gateway.internalUrl}/readyz`);
    expect(unready.status).toBe(503);
    expect(await unready.json()).toMatchObject({ status: 'unavailable', checks: { certificate: 'down', mobility: 'up' }, code: 'not_ready' });
  });
});

describe('gateway upstream variables', () => {
  it('take one URL or several separated by commas', () => {
    const config = parseConfig(gatewayConfigSchema, { CERTIFICATE_URL: 'http://127.0.0.1:3001, http://127.0.0.1:3011', MOBILITY_URL: 'http://127.0.0.1:3002' });
    expect(config.CERTIFICATE_URL).toBe('http://127.0.0.1:3001, http://127.0.0.1:3011');
  });

  it.each(['http://127.0.0.1:3001,not a url', ',', 'ftp://127.0.0.1:3001'])('refuse %j in one line naming the variable', (value) => {
    expect(() => parseConfig(gatewayConfigSchema, { CERTIFICATE_URL: value })).toThrow(
      `Invalid environment variable CERTIFICATE_URL: must be a URL, or several separated by commas (got ${JSON.stringify(value)})`,
    );
  });
});
