import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { createServer } from 'node:http';
import pino from 'pino';
import { listen, openEventStream, sendJson, waitFor, type RunningServer } from '@platform/test-kit';
import { createGateway } from '../src/app';
import { startGateway, type RunningGateway } from './helpers';

// Short enough that the silence test outlasts it; long enough that a loaded machine still starts answers in time.
const UPSTREAM_TIMEOUT_MS = 1000;

/** A fake mobility service whose event streams the test drives by hand: each open stream waits for `send` calls. */
interface OpenUpstreamStream {
  req: IncomingMessage;
  res: ServerResponse;
  closed: boolean;
  send(event: string, data: unknown): void;
}

let upstream: RunningServer;
let gateway: RunningGateway;
const streams: OpenUpstreamStream[] = [];

beforeAll(async () => {
  upstream = await listen((req, res) => {
    if (!req.url?.endsWith('/stream')) return sendJson(res, 200, { ok: true });
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    res.flushHeaders(); // the answer starts now, before any event (as the mobility service does)
    let id = 0;
    const stream: OpenUpstreamStream = {
      req,
      res,
      closed: false,
      send(event, data) {
        id += 1;
        res.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
    };
    res.once('close', () => (stream.closed = true));
    streams.push(stream);
  });
  // One pooled socket and one request in flight per address for ordinary requests: open streams must take neither.
  gateway = await startGateway(
    { certificate: 'http://127.0.0.1:9', mobility: upstream.url },
    { timeoutMs: UPSTREAM_TIMEOUT_MS, config: { UPSTREAM_MAX_SOCKETS: 1, MAX_IN_FLIGHT_PER_CLIENT: 1 } },
  );
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function openThroughGateway(path: string) {
  const before = streams.length;
  const client = await openEventStream(`${gateway.url}${path}`, { 'Accept-Encoding': 'br, gzip' });
  const stream = await waitFor(() => streams[before], 'the upstream to receive the stream request');
  return { client, stream };
}

describe('Server-Sent Events through the gateway', () => {
  it('passes each event on before the next is sent, uncompressed, with the stream headers', async () => {
    const { client, stream } = await openThroughGateway('/api/v1/rides/ride_abc/stream');
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['content-encoding']).toBeUndefined();

    for (let i = 0; i < 3; i += 1) {
      stream.send('status', { n: i });
      // The next event is only sent once this one reached the client: nothing is held back for a bigger chunk.
      expect(await client.event(i)).toEqual({ id: String(i + 1), event: 'status', data: JSON.stringify({ n: i }) });
      expect(client.events).toHaveLength(i + 1);
    }
    stream.res.end();
    await client.ended;
  });

  it('keeps a started stream open through a silence longer than UPSTREAM_TIMEOUT_MS', async () => {
    const { client, stream } = await openThroughGateway('/api/v1/deliveries/dlv_abc/stream');
    stream.send('status', { status: 'pending' });
    await client.event(0);
    await delay(UPSTREAM_TIMEOUT_MS * 2); // a quiet job: no event, no heartbeat
    stream.send('status', { status: 'cancelled' });
    expect(JSON.parse((await client.event(1)).data)).toEqual({ status: 'cancelled' });
    expect(stream.closed).toBe(false);
    stream.res.end();
    await client.ended;
  });

  it('closes the upstream request when the client disconnects', async () => {
    const { client, stream } = await openThroughGateway('/api/v1/rides/ride_gone/stream');
    stream.send('status', { status: 'accepted' });
    await client.event(0);
    client.close();
    await waitFor(() => stream.closed, 'the upstream stream to be closed');
  });

  it('keeps open streams out of the ordinary upstream pool and the per-address in-flight count', async () => {
    const first = await openThroughGateway('/api/v1/rides/ride_one/stream');
    const second = await openThroughGateway('/api/v1/rides/ride_two/stream');
    first.stream.send('status', { status: 'accepted' });
    second.stream.send('status', { status: 'accepted' });
    await Promise.all([first.client.event(0), second.client.event(0)]);
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${gateway.url}/api/v1/rides/ride_one`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    }
    first.client.close();
    second.client.close();
    await waitFor(() => first.stream.closed && second.stream.closed, 'both upstream streams to be closed');
  });

  it('ends open streams when the gateway shuts down (closeStreams, run on SIGTERM before draining)', async () => {
    const draining = createGateway({ config: { CERTIFICATE_URL: 'http://127.0.0.1:9', MOBILITY_URL: upstream.url, UPSTREAM_TIMEOUT_MS }, logger: pino({ level: 'silent' }) });
    const server = await listen(createServer(draining.public));
    try {
      const before = streams.length;
      const client = await openEventStream(`${server.url}/api/v1/rides/ride_drain/stream`);
      const stream = await waitFor(() => streams[before], 'the upstream to receive the stream request');
      stream.send('status', { status: 'accepted' });
      await client.event(0);
      draining.closeStreams();
      await client.ended;
      await waitFor(() => stream.closed, 'the upstream stream to be closed');
      expect(client.events).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('still answers 504 when the upstream does not start its answer in time', async () => {
    const silent = await listen(() => undefined);
    const slowGateway = await startGateway({ certificate: 'http://127.0.0.1:9', mobility: silent.url }, UPSTREAM_TIMEOUT_MS);
    try {
      const res = await fetch(`${slowGateway.url}/api/v1/rides/ride_abc/stream`, { headers: { Accept: 'text/event-stream' } });
      expect(res.status).toBe(504);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect(((await res.json()) as { code: string }).code).toBe('upstream_timeout');
    } finally {
      await slowGateway.close();
      await silent.close();
    }
  });
});
