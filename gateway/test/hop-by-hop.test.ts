import { connect } from 'node:net';
import { startFakeServer } from '@platform/test-kit';
import { startGateway, type RunningGateway } from './helpers';
import { send } from './raw-http';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

let upstream: Fake;
let gateway: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive, X-Upstream-Hop', 'X-Upstream-Hop': 'secret', 'X-Kept': 'yes' });
    res.end('{}');
  });
  gateway = await startGateway({ certificate: upstream.url, mobility: upstream.url });
});
afterAll(async () => {
  await Promise.all([gateway.close(), upstream.close()]);
});

describe('gateway hop-by-hop headers (RFC 9110 §7.6.1)', () => {
  it('drops the headers a request names in Connection, and the standard hop-by-hop ones, but forwards the rest', async () => {
    const res = await send(gateway.url, {
      path: '/api/v1/credits',
      headers: { Connection: 'keep-alive, X-Client-Hop', 'X-Client-Hop': 'internal', 'Keep-Alive': 'timeout=5', TE: 'trailers', 'X-Forwarded-Ok': 'kept' },
    });
    expect(res.status).toBe(200);
    const received = upstream.requests.at(-1)!.headers;
    expect(received['x-client-hop']).toBeUndefined();
    expect(received['te']).toBeUndefined();
    expect(received['x-forwarded-ok']).toBe('kept');
  });

  it('drops the headers an answer names in Connection', async () => {
    const res = await send(gateway.url, { path: '/api/v1/credits' });
    expect(res.status).toBe(200);
    expect(res.headers['x-upstream-hop']).toBeUndefined();
    expect(res.headers['x-kept']).toBe('yes');
  });

  it('forwards a request from an HTTP/1.0 client that sent no Host with a Host header of its own', async () => {
    const url = new URL(gateway.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GET /api/v1/credits HTTP/1.0\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.once('end', () => resolve(Buffer.concat(chunks).toString()));
      socket.once('error', reject);
    });
    expect(answer.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.requests.at(-1)!.headers.host).toBe(`${new URL(upstream.url).hostname}:${new URL(upstream.url).port}`);
  });

  it('replaces the client’s own forwarding headers rather than sending them twice', async () => {
    const res = await send(gateway.url, {
      path: '/api/v1/credits',
      headers: { 'X-Request-Id': 'hop-1', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'spoofed.example', 'Content-Length': '0' },
    });
    expect(res.status).toBe(200);
    const received = upstream.requests.at(-1)!.headers;
    expect(received['x-request-id']).toBe('hop-1');
    expect(received['x-forwarded-proto']).toBe('http');
    expect(received['x-forwarded-host']).toBe(new URL(gateway.url).host);
    expect(received['content-length']).toBe('0');
  });
});
