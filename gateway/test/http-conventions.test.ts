import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { startGateway, type RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const LARGE = { data: Array.from({ length: 60 }, (_, i) => ({ id: `ride_${i}`, status: 'pending', note: 'x'.repeat(20) })) };
const ETAG = '"abc123"';

let mobility: Fake;
let gateway: RunningGateway;

beforeAll(async () => {
  mobility = await startFakeServer((req, res) => {
    if (req.url === '/api/v1/rides/ride_1') {
      if (req.headers['if-none-match'] === ETAG) {
        res.writeHead(304, { ETag: ETAG });
        res.end();
        return;
      }
      res.setHeader('ETag', ETAG);
      return sendJson(res, 200, { id: 'ride_1', status: 'pending' });
    }
    if (req.url === '/api/v1/rides/large') return sendJson(res, 200, LARGE);
    if (req.url === '/api/v1/rides/stream') {
      const event = `data: ${'y'.repeat(4000)}\n\n`;
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Content-Length': Buffer.byteLength(event) }); // long enough, but a stream
      res.end(event);
      return;
    }
    if (req.url === '/api/v1/rides/encoded') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'identity-ish', 'Content-Length': 2000 });
      res.end('z'.repeat(2000));
      return;
    }
    sendJson(res, 200, { ok: true });
  });
  gateway = await startGateway({ certificate: 'http://127.0.0.1:9', mobility: mobility.url });
});
afterAll(async () => {
  await Promise.all([gateway.close(), mobility.close()]);
});

/** A raw request, so the test sees the bytes on the wire (fetch would decode them). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, gateway.url), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('conditional requests through the gateway', () => {
  it('passes the ETag to the client and If-None-Match to the service, and the 304 back', async () => {
    const first = await get('/api/v1/rides/ride_1');
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe(ETAG);
    const again = await get('/api/v1/rides/ride_1', { 'If-None-Match': ETAG });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(ETAG);
  });
});

describe('compression at the gateway', () => {
  it('compresses a JSON answer over 1 kB with brotli when the client accepts it', async () => {
    const res = await get('/api/v1/rides/large', { 'Accept-Encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.body.length).toBeLessThan(JSON.stringify(LARGE).length);
    expect(JSON.parse(brotliDecompressSync(res.body).toString())).toEqual(LARGE);
  });

  it('uses gzip when brotli is not accepted, and nothing when neither is', async () => {
    const gzip = await get('/api/v1/rides/large', { 'Accept-Encoding': 'gzip;q=1, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(LARGE);
    const plain = await get('/api/v1/rides/large');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(LARGE);
  });

  it('leaves small answers, event streams and answers the service already encoded as they are', async () => {
    const small = await get('/api/v1/rides/ride_1', { 'Accept-Encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ id: 'ride_1', status: 'pending' });
    const stream = await get('/api/v1/rides/stream', { 'Accept-Encoding': 'br, gzip' });
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body.toString()).toMatch(/^data: y+\n\n$/);
    const encoded = await get('/api/v1/rides/encoded', { 'Accept-Encoding': 'br, gzip' });
    expect(encoded.headers['content-encoding']).toBe('identity-ish');
    expect(encoded.body.toString()).toBe('z'.repeat(2000));
  });

  it('compresses the docs page, its renderer bundle and the description', async () => {
    const description = await get('/openapi.json', { 'Accept-Encoding': 'gzip' });
    expect(description.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(description.body).toString()).openapi).toBe('3.1.0');
    const page = await get('/docs', { 'Accept-Encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toContain('data-url="/openapi.json"');
    const bundle = await get('/docs/assets/api-reference.js', { 'Accept-Encoding': 'gzip' });
    expect(bundle.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(bundle.body).toString()).toContain('createApiReference');
    const identity = await get('/openapi.json');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body.toString()).openapi).toBe('3.1.0');
  });
});

describe('the gateway’s own pages', () => {
  it('answer another method with 405 and Allow, as Problem Details', async () => {
    const res = await get('/docs', {}, 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(res.body.toString())).toMatchObject({ status: 405, code: 'method_not_allowed', title: 'Method Not Allowed' });
  });

  it('disable the renderer’s external services on the docs page', async () => {
    const page = (await get('/docs')).body.toString();
    const configuration = JSON.parse(/data-configuration='([^']+)'/.exec(page)![1]!);
    expect(configuration).toMatchObject({ mcp: { disabled: true }, agent: { disabled: true }, hideClientButton: true, withDefaultFonts: false, telemetry: false });
  });
});
