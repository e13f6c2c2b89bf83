import { startGateway, captureLines, type RunningGateway } from '@platform/gateway/test/helpers';
import { createLogger } from '@platform/service-kit/logger';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { parseTraceparent } from '@platform/service-kit/trace-context';
import { listen, sendJson, startFakeServer, type RunningServer } from '@platform/test-kit';
import { createApp } from '../src/app';
import { createDispatchWorker } from '../src/features/dispatch/dispatch.worker';
import { buildServices } from '../src/services';
import { startWebhookDispatch, type WebhookDispatch } from '../src/features/webhook-dispatch/webhook-worker';
import { appendOutboxEvent } from '../src/features/outbox/outbox.repository';
import type { TestContext } from './helpers/context';
import { createIsolatedContext, type IsolatedContext } from './helpers/webhooks';
import { waitFor } from '@platform/test-kit';
import { createPartnerKey } from './factories/auth';
import { randomCentre } from './factories/fleet';
import { rideBody } from './factories/rides';

// One partner request followed by its W3C trace id: gateway → mobility API → outbox → worker → the webhook POST.
let isolated: IsolatedContext;
let mobility: RunningServer;
let gateway: RunningGateway;
let receiver: Awaited<ReturnType<typeof startFakeServer>>;
let dispatch: WebhookDispatch;
let workerConnection: Redis;
let token: string;
const gatewayLogs = captureLines();
const serviceLogs = captureLines();
const workerLogs = captureLines();

beforeAll(async () => {
  // A short search: the last test waits for a dispatch timeout, the others cancel at once.
  isolated = await createIsolatedContext({ DISPATCH_TIMEOUT_S: '2' });
  const { db, redis, config } = isolated;
  const app = createApp({ db, redis, config, logger: createLogger('mobility', 'info', serviceLogs.stream) });
  mobility = await listen(app);
  gateway = await startGateway({ certificate: mobility.url, mobility: mobility.url }, { logger: createLogger('gateway', 'info', gatewayLogs.stream) });
  receiver = await startFakeServer((_req, res) => sendJson(res, 200, { ok: true }));
  workerConnection = createRedis(config.REDIS_URL);
  dispatch = startWebhookDispatch({ db, connection: workerConnection, config, logger: createLogger('mobility-worker', 'info', workerLogs.stream), appendEvent: appendOutboxEvent });
  // Keys are made on the admin API, which the gateway does not expose.
  ({ token } = await createPartnerKey({ app, config } as TestContext));
  await viaGateway('POST', '/api/v1/webhooks', { url: `${receiver.url}/hooks` }, {}, 201);
});
afterAll(async () => {
  await dispatch.close();
  workerConnection.disconnect();
  await Promise.all([gateway.close(), mobility.close(), receiver.close()]);
  await isolated.close();
});

async function viaGateway(method: string, path: string, body: unknown, headers: Record<string, string>, expectedStatus: number) {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  expect(res.status).toBe(expectedStatus);
  return answer;
}

/** Creates a ride and cancels it through the gateway (the cancel carries `headers`); returns the webhook POST it caused. */
async function cancelThroughGateway(headers: Record<string, string>) {
  const ride = await viaGateway('POST', '/api/v1/rides', rideBody(randomCentre()), {}, 201);
  await viaGateway('POST', `/api/v1/rides/${String(ride.id)}/cancel`, undefined, headers, 200);
  const post = await waitFor(
    () => receiver.requests.find((r) => JSON.parse(r.body.toString('utf8')).data.id === ride.id),
    'the ride.cancelled webhook',
  );
  return { post, event: JSON.parse(post.body.toString('utf8')) as { id: string; type: string } };
}

function requestLine(lines: Array<Record<string, unknown>>, requestId: string) {
  return lines.find((line) => line.msg === 'request' && line.request_id === requestId);
}

describe('a partner request traced to the webhook POST', () => {
  it('carries the caller’s trace id from the gateway through the service and the outbox to the webhook POST and the logs', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const { post, event } = await cancelThroughGateway({ traceparent: `00-${traceId}-${callerSpan}-01`, 'X-Request-Id': 'trace-e2e-1' });

    expect(event.type).toBe('ride.cancelled');
    const sent = parseTraceparent(post.headers.traceparent);
    expect(sent).toEqual({ traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), flags: '01' });
    expect(sent!.spanId).not.toBe(callerSpan); // the worker's own span, a descendant of the caller's

    expect(requestLine(gatewayLogs.lines(), 'trace-e2e-1')).toMatchObject({ route: '/api/v1/rides', status: 200, trace_id: traceId });
    expect(requestLine(serviceLogs.lines(), 'trace-e2e-1')).toMatchObject({ route: '/api/v1/rides/:id/cancel', status: 200, trace_id: traceId });
    await waitFor(() => workerLogs.lines().some((l) => l.eventId === event.id), 'the attempt log line');
    expect(workerLogs.lines().find((l) => l.eventId === event.id)).toMatchObject({ msg: 'webhook attempt succeeded', statusCode: 200, trace_id: traceId });
  });

  it('replaces an invalid traceparent with a new trace that is still followed end to end, and never passes the invalid one on', async () => {
    const invalid = '00-00000000000000000000000000000000-00f067aa0ba902b7-01'; // an all-zero trace id is invalid
    const { post, event } = await cancelThroughGateway({ traceparent: invalid, tracestate: 'vendor=abc', 'X-Request-Id': 'trace-e2e-2' });

    const sent = parseTraceparent(post.headers.traceparent);
    expect(sent).toBeDefined();
    expect(post.headers.traceparent).not.toContain('00000000000000000000000000000000');
    const gatewayLine = requestLine(gatewayLogs.lines(), 'trace-e2e-2');
    expect(gatewayLine?.trace_id).toBe(sent!.traceId);
    expect(requestLine(serviceLogs.lines(), 'trace-e2e-2')?.trace_id).toBe(sent!.traceId);
    await waitFor(() => workerLogs.lines().some((l) => l.eventId === event.id), 'the attempt log line');
    expect(workerLogs.lines().find((l) => l.eventId === event.id)?.trace_id).toBe(sent!.traceId);
  });

  it('starts a new trace for a request without traceparent: every request its own trace', async () => {
    const { post } = await cancelThroughGateway({ 'X-Request-Id': 'trace-e2e-3' });
    const sent = parseTraceparent(post.headers.traceparent);
    expect(requestLine(serviceLogs.lines(), 'trace-e2e-3')?.trace_id).toBe(sent?.traceId);
    const traceIds = receiver.requests.map((r) => parseTraceparent(r.headers.traceparent)?.traceId);
    expect(new Set(traceIds).size).toBe(traceIds.length); // three requests, three traces
  });

  it('sends a webhook no request caused (a dispatch timeout) in a trace of its own', async () => {
    const { db, redis, config } = isolated;
    const timersConnection = createRedis(config.REDIS_URL);
    const services = buildServices({ db, redis, config, logger: createLogger('mobility-worker', 'silent') });
    const timers = createDispatchWorker(services.dispatcher, timersConnection, config.REDIS_PREFIX, createLogger('mobility-worker', 'silent'));
    try {
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const ride = await viaGateway('POST', '/api/v1/rides', rideBody(randomCentre()), { traceparent: `00-${traceId}-b7ad6b7169203331-01` }, 201);
      const post = await waitFor(() => receiver.requests.find((r) => JSON.parse(r.body.toString('utf8')).data.id === ride.id), 'the ride.no_drivers_available webhook');
      expect(JSON.parse(post.body.toString('utf8')).type).toBe('ride.no_drivers_available');
      const sent = parseTraceparent(post.headers.traceparent);
      expect(sent).toBeDefined();
      expect(sent!.traceId).not.toBe(traceId);
    } finally {
      await timers.close();
      await services.timers.close();
      timersConnection.disconnect();
    }
  });
});
