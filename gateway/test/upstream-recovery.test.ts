import { createServer, type Server } from 'node:http';
import { sendJson, startFakeServer, type RunningServer } from '@platform/test-kit';
import { startGateway } from './helpers';
import type { RunningGateway } from './helpers';

let mobility: RunningServer;
let gateway: RunningGateway;
let certificate: Server;
let certificatePort: number;

function startCertificateOn(port: number): Promise<Server> {
  const server = createServer((req, res) => sendJson(res, 200, { upstream: 'certificate', path: req.url }));
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

beforeAll(async () => {
  mobility = await startFakeServer((_req, res) => sendJson(res, 200, { upstream: 'mobility' }));
  certificate = await startCertificateOn(0);
  certificatePort = (certificate.address() as { port: number }).port;
  gateway = await startGateway({ certificate: `http://127.0.0.1:${certificatePort}`, mobility: mobility.url });
});
afterAll(async () => {
  await Promise.all([gateway.close(), mobility.close(), stop(certificate)]);
});

describe('gateway while an upstream restarts', () => {
  it('answers 502 JSON while the service is down and recovers by itself when it is back', async () => {
    const first = await fetch(`${gateway.url}/api/v1/credits`);
    expect(first.status).toBe(200);

    await stop(certificate);
    const down = await fetch(`${gateway.url}/api/v1/credits`);
    expect(down.status).toBe(502);
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await down.json()).toMatchObject({ error: 'The certificate service is unavailable', code: 'upstream_unavailable' });
    const notReady = await fetch(`${gateway.internalUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ checks: { certificate: 'down', mobility: 'up' }, code: 'not_ready' });

    certificate = await startCertificateOn(certificatePort);
    const back = await fetch(`${gateway.url}/api/v1/credits`);
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual({ upstream: 'certificate', path: '/api/v1/credits' });
    const ready = await fetch(`${gateway.internalUrl}/readyz`);
    expect(ready.status).toBe(200);
  });
});
