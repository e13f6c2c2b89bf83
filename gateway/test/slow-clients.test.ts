import type { ClientRequest } from 'node:http';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { startGateway, type RunningGateway } from './helpers';
import { open, send, type RawAnswer } from './raw-http';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const SECOND_CLIENT = '127.0.0.2';
let certificate: Fake;
let mobility: Fake;
let gateways: RunningGateway[] = [];
let openRequests: ClientRequest[] = [];

beforeAll(async () => {
  certificate = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'certificate', path: req.url }));
  mobility = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
});
afterEach(async () => {
  for (const req of openRequests) req.destroy();
  openRequests = [];
  await Promise.all(gateways.map((g) => g.close()));
  gateways = [];
});
afterAll(async () => {
  await Promise.all([certificate.close(), mobility.close()]);
});

async function gatewayWith(config: Parameters<typeof startGateway>[1] & object = {}): Promise<RunningGateway> {
  const gateway = await startGateway({ certificate: certificate.url, mobility: mobility.url }, config);
  gateways.push(gateway);
  return gateway;
}

/** A webhook POST that promises 100 bytes and sends one: its body never completes. */
function slowBody(gateway: RunningGateway): Promise<RawAnswer> {
  const req = open(gateway.url, { method: 'POST', path: '/webhooks/payments/gateway-a', headers: { 'Content-Type': 'application/json', 'Content-Length': '100' } });
  openRequests.push(req);
  req.write('{');
  return new Promise((resolve) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.once('error', () => undefined);
  });
}

describe('gateway against slow clients', () => {
  it('keeps serving another client while one address holds 260 requests with unfinished bodies', async () => {
    const gateway = await gatewayWith({ config: { BODY_TIMEOUT_MS: 60000 } });
    const slow = Array.from({ length: 260 }, () => slowBody(gateway));
    void slow;
    const before = certificate.requests.length;
    for (let i = 0; i < 5; i++) {
      const res = await send(gateway.url, { path: '/api/v1/credits', localAddress: SECOND_CLIENT });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ upstream: 'certificate', path: '/api/v1/credits' });
    }
    expect(certificate.requests.length).toBe(before + 5); // no unfinished body reached the service
  });

  it('answers 408 JSON when a body has not fully arrived in time, without calling the service', async () => {
    const gateway = await gatewayWith({ config: { BODY_TIMEOUT_MS: 200 } });
    const before = certificate.requests.length;
    const answer = await slowBody(gateway);
    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'The request body did not arrive within 200 ms', code: 'request_timeout' });
    expect(certificate.requests.length).toBe(before);
  });

  it('answers 413 JSON before proxying when Content-Length is over the limit', async () => {
    const gateway = await gatewayWith();
    const before = certificate.requests.length;
    const res = await send(gateway.url, {
      method: 'POST',
      path: '/webhooks/payments/gateway-a',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.alloc(100 * 1024 + 1, 0x20),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'The request body is larger than 102400 bytes', code: 'payload_too_large' });
    expect(certificate.requests.length).toBe(before);
  });

  it('answers 413 JSON for a chunked body that grows over the limit', async () => {
    const gateway = await gatewayWith({ config: { MAX_BODY_BYTES: 1000 } });
    const before = mobility.requests.length;
    const req = open(gateway.url, { method: 'POST', path: '/api/v1/rides', headers: { 'Content-Type': 'application/json' } });
    openRequests.push(req);
    const answer = new Promise<number>((resolve) => req.once('response', (res) => resolve(res.statusCode ?? 0)));
    req.once('error', () => undefined);
    req.write(Buffer.alloc(600, 0x20));
    req.write(Buffer.alloc(600, 0x20));
    expect(await answer).toBe(413);
    expect(mobility.requests.length).toBe(before);
  });

  it('caps requests in flight per client address with a 429 JSON while other addresses pass', async () => {
    const gateway = await gatewayWith({ config: { MAX_IN_FLIGHT_PER_CLIENT: 3, BODY_TIMEOUT_MS: 60000 } });
    const held = [slowBody(gateway), slowBody(gateway), slowBody(gateway)];
    void held;
    let capped: RawAnswer | undefined;
    // The three held requests are counted once the gateway has read their headers.
    for (let attempt = 0; attempt < 100 && capped?.status !== 429; attempt++) capped = await send(gateway.url, { path: '/api/v1/credits' });
    expect(capped!.status).toBe(429);
    expect(JSON.parse(capped!.text)).toMatchObject({ error: 'Too many requests in flight from this address', code: 'too_many_in_flight' });
    const other = await send(gateway.url, { path: '/api/v1/credits', localAddress: SECOND_CLIENT });
    expect(other.status).toBe(200);
  });

  it('answers 504 JSON when a request waits for an upstream socket past its deadline, counted from its arrival', async () => {
    const streams: Array<ReturnType<typeof setInterval>> = [];
    mobility.setReply((req, res) => {
      // A long answer that is not an event stream (`…/stream` paths have a socket pool of their own).
      if (!req.url.startsWith('/api/v1/rides/long-answer')) return sendJson(res, 200, { upstream: 'mobility', path: req.url });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50); // busy, never idle: its socket is never free
      streams.push(timer);
      res.once('close', () => clearInterval(timer));
    });
    try {
      const gateway = await gatewayWith({ timeoutMs: 400, config: { UPSTREAM_MAX_SOCKETS: 1 } });
      const stream = open(gateway.url, { path: '/api/v1/rides/long-answer' });
      openRequests.push(stream);
      stream.once('error', () => undefined);
      const streaming = await new Promise<number>((resolve) => {
        stream.once('response', (res) => resolve(res.statusCode ?? 0));
        stream.end();
      });
      expect(streaming).toBe(200);
      const waiting = await send(gateway.url, { path: '/api/v1/estimates' });
      expect(waiting.status).toBe(504);
      expect(JSON.parse(waiting.text)).toMatchObject({ error: 'The mobility service did not answer in time', code: 'upstream_timeout' });
    } finally {
      streams.forEach(clearInterval);
      mobility.setReply((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
    }
  });
});
