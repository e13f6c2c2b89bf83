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
});
