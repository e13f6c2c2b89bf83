import { createLogger } from '@platform/service-kit/logger';
import { parseTraceparent } from '@platform/service-kit/trace-context';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { captureLines, startGateway, type RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
let upstream: Fake;
let gateway: RunningGateway;
const logs = captureLines();

beforeAll(async () => {
  upstream = await startFakeServer((_req, res) => sendJson(res, 200, {}));
  gateway = await startGateway({ certificate: upstream.url, mobility: upstream.url }, { logger: createLogger('gateway', 'info', logs.stream) });
});
afterAll(async () => {
  await Promise.all([gateway.close(), upstream.close()]);
});

/** Sends a request through the gateway; returns what the upstream received and the gateway's log line for it. */
async function proxied(requestId: string, headers: Record<string, string>) {
  const res = await fetch(`${gateway.url}/api/v1/rides/ride_1`, { headers: { 'X-Request-Id': requestId, ...headers } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const received = upstream.requests.find((r) => r.headers['x-request-id'] === requestId)!;
  const line = logs.lines().find((l) => l.msg === 'request' && l.request_id === requestId);
  return { received: received.headers, line, forwarded: parseTraceparent(received.headers.traceparent) };
}

describe('gateway trace context (W3C traceparent)', () => {
  it('continues the caller’s trace: the upstream gets the same trace id and flags with the gateway’s span as parent, and tracestate', async () => {
    const { received, line, forwarded } = await proxied('gw-trace-1', { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, tracestate: 'vendor=abc' });
    expect(forwarded).toEqual({ traceId: TRACE_ID, spanId: expect.any(String), flags: '01' });
    expect(forwarded!.spanId).not.toBe(CALLER_SPAN);
    expect(received.tracestate).toBe('vendor=abc');
    expect(line).toMatchObject({ trace_id: TRACE_ID, status: 200 });
  });

  it('starts a new trace for an invalid traceparent, and forwards neither it nor its tracestate', async () => {
    const invalid = `00-${TRACE_ID.toUpperCase()}-${CALLER_SPAN}-01`;
    const { received, line, forwarded } = await proxied('gw-trace-2', { traceparent: invalid, tracestate: 'vendor=abc' });
    expect(forwarded).toBeDefined();
    expect(forwarded!.traceId).not.toBe(TRACE_ID);
    expect(received.traceparent).not.toBe(invalid);
    expect(received.tracestate).toBeUndefined();
    expect(line).toMatchObject({ trace_id: forwarded!.traceId });
  });

  it('starts a new trace, one per request, when there is no traceparent', async () => {
    const first = await proxied('gw-trace-3', {});
    const second = await proxied('gw-trace-4', {});
    expect(first.forwarded).toBeDefined();
    expect(first.forwarded!.traceId).not.toBe(second.forwarded!.traceId);
    expect(first.line).toMatchObject({ trace_id: first.forwarded!.traceId });
  });

  it('logs the gateway’s own pages with the caller’s trace id and request id too', async () => {
    for (const [path, status] of [['/healthz', 200], ['/no-such-page', 404]] as const) {
      const requestId = `gw-own-${status}`;
      const res = await fetch(`${gateway.url}${path}`, { headers: { 'X-Request-Id': requestId, traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` } });
      expect(res.status).toBe(status);
      expect(res.headers.get('x-request-id')).toBe(requestId);
      await res.arrayBuffer();
      const line = logs.lines().find((l) => l.msg === 'request' && l.request_id === requestId);
      expect(line).toMatchObject({ trace_id: TRACE_ID, status });
    }
  });
});
