import { Agent, request, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Logger } from '@platform/service-kit/logger';
import type { TraceSpan } from '@platform/service-kit/trace-context';
import { compressedHeaders, compressibleAnswer, compressorFor, negotiateEncoding } from './compression';
import { answerJson } from './json-answer';
import { BodyRefusal, type StreamedBody } from './request-body';
import { pathOf } from './routes';
import { roundRobin } from './upstream-list';

/** Headers that describe one hop, not the message: never forwarded either way (RFC 9110 §7.6.1), nor any header `Connection` names. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface ProxyCall {
  /** The whole request body, already read at the gateway, or one streamed as it arrives (undefined: none). */
  body: Buffer | StreamedBody | undefined;
  /** `Date.now()` when the request arrived: the upstream deadline counts from here, socket wait included. */
  arrivedAt: number;
  requestId: string;
  /** The gateway's span of this request: the upstream gets its traceparent (same trace, the gateway's span as parent). */
  span: TraceSpan;
  /** The upstream request target when it differs from the client's (`/dashboard/api/…` rewrites). */
  path?: string;
  /** Told the upstream's status once its answer starts. */
  onStatus?: (status: number) => void;
  /** Told when the answer turned out to be an event stream (long-lived by design, not a request stuck in flight). */
  onEventStream?: () => void;
}

export type UpstreamProxy = ((req: IncomingMessage, res: ServerResponse, call: ProxyCall) => void) & {
  /** Ends every event stream in progress (shutdown: EventSource clients reconnect to another instance). */
  closeStreams(): void;
};

export interface UpstreamOptions {
  timeoutMs: number;
  maxSockets: number;
  /** Sockets for event-stream requests, a pool of their own (see `isStreamRequest`). */
  maxStreamSockets: number;
}

/**
 * A proxy to one upstream on node:http with a keep-alive agent. The body (read in full at the gateway, or streamed
 * on the dashboard's admin routes) is sent untouched (payment signatures are over the raw bytes); the answer is piped back as it comes. A refused upstream
 * is a 502 JSON; no answer within `timeoutMs` of the request's arrival (waiting for a pooled socket included), or an
 * answer that stalls that long, a 504 JSON (a `text/event-stream` answer, once started, may stay quiet as long as it likes). A client that hangs up first is not an upstream failure and is not logged as one.
 *
 * With several `targets` (replicas of the service) each request goes to the next one in turn (round robin). A replica
 * that refuses the connection never saw the request, so the request goes on to the following one (each at most once),
 * and only when every replica refuses is the answer a 502. Any other failure is not retried: the replica may have acted.
 */
export function createUpstreamProxy(name: string, targets: string[], options: UpstreamOptions, logger: Logger): UpstreamProxy {
  const bases = targets.map(hostAndPort);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets, keepAliveMsecs: 10000 }); // pools per host:port
  // A stream holds its socket until the job ends: hundreds of open streams must not leave other requests waiting for one.
  const streamAgent = new Agent({ keepAlive: false, maxSockets: options.maxStreamSockets });
  const nextReplica = roundRobin(bases.length);
  const timeoutBody = { error: `The ${name} service did not answer in time`, code: 'upstream_timeout' };
  const unavailableBody = { error: `The ${name} service is unavailable`, code: 'upstream_unavailable' };

  const openStreams = new Set<() => void>();
  const proxy = (req: IncomingMessage, res: ServerResponse, call: ProxyCall): void => {
    let answered = false; // the upstream's answer started, or the gateway answered itself
    let clientGone = false;
    let upstream: ClientRequest | undefined;
    const fail = (reason: string, timedOut: boolean) => {
      if (clientGone) return;
      logger.warn({ request_id: call.requestId, upstream: name, err: reason, timedOut }, 'upstream failed');
      if (answered) {
        res.destroy();
        return;
      }
      answered = true;
      answerJson(res, timedOut ? 504 : 502, timedOut ? timeoutBody : unavailableBody);
    };
    // A request still queued for a pooled socket emits nothing when destroyed, so the gateway answers first.
    const giveUp = () => {
      fail('upstream timeout', true);
      upstream?.destroy();
    };
    const deadline = setTimeout(giveUp, Math.max(0, options.timeoutMs - (Date.now() - call.arrivedAt)));
    const first = nextReplica();
    const send = (attempt: number) => {
      const { host, port } = bases[(first + attempt) % bases.length]!;
      const headers = forwardedHeaders(req, call);
      if (!req.headers.host) headers.push('host', `${host}:${port}`); // an HTTP/1.0 client may send none; node:http adds none to a list
      const attemptRequest = request({ host, port, method: req.method, path: call.path ?? req.url, headers, agent: isStreamRequest(req) ? streamAgent : agent });
      upstream = attemptRequest;
      attemptRequest.setTimeout(options.timeoutMs, giveUp);
      attemptRequest.once('response', (answer) => {
        clearTimeout(deadline);
        if (answered) return answer.resume();
        answered = true;
        const status = answer.statusCode ?? 502;
        call.onStatus?.(status);
        if (streamed && !req.complete) endWithEarlyAnswer(res, attemptRequest, streamed);
        answer.once('error', () => res.destroy());
        if (isEventStream(answer.headers)) {
          // A Server-Sent Events stream lives as long as its job: UPSTREAM_TIMEOUT_MS bounds only the start of an answer,
          // so the idle timer goes; each event is passed on as it arrives (never compressed, never held back).
          attemptRequest.setTimeout(0);
          call.onEventStream?.();
          res.writeHead(status, answer.statusMessage, responseHeaders(answer.headers));
          res.flushHeaders();
          answer.pipe(res);
          const close = () => {
            answer.unpipe(res);
            res.end();
            attemptRequest.destroy();
          };
          openStreams.add(close);
          res.once('close', () => openStreams.delete(close));
          return;
        }
        if (req.method === 'HEAD' || !compressibleAnswer(status, answer.headers)) {
          res.writeHead(status, answer.statusMessage, responseHeaders(answer.headers));
          answer.pipe(res);
          return;
        }
        // A JSON answer over 1 kB the client accepts compressed is compressed as it streams through.
        const encoding = negotiateEncoding(req.headers['accept-encoding']);
        res.writeHead(status, answer.statusMessage, compressedHeaders(responseHeaders(answer.headers), encoding));
        if (!encoding) return void answer.pipe(res);
        const compressor = compressorFor(encoding);
        compressor.once('error', () => res.destroy());
        answer.pipe(compressor).pipe(res);
      });
      attemptRequest.on('error', (error: NodeJS.ErrnoException) => {
        if (answered || clientGone) return;
        if (error.code === 'ECONNREFUSED' && attempt + 1 < bases.length) return send(attempt + 1);
        clearTimeout(deadline);
        fail(error.code ?? error.message, false);
      });
      if (streamed) {
        // Not a byte leaves the client before the service's socket is connected: a replica refusing the connection
        // saw nothing, so the next one still gets the whole body.
        const start = () => {
          if (!answered && !clientGone) streamed.stream.pipe(attemptRequest);
        };
        attemptRequest.once('socket', (socket) => (socket.connecting ? socket.once('connect', start) : start()));
      } else attemptRequest.end(call.body);
    };
    const streamed = call.body && !Buffer.isBuffer(call.body) ? call.body : undefined;
    // A streamed body stopped at the gateway (over the route's cap, too slow) or cut off by the client: the service's
    // request is aborted, so it never sees an incomplete body as a whole one.
    streamed?.stream.once('error', (error) => {
      clearTimeout(deadline);
      upstream?.destroy();
      if (clientGone) return;
      if (answered || !(error instanceof BodyRefusal)) return void res.destroy();
      answered = true;
      const retryAfter = error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
      answerJson(res, error.status, { error: error.message, code: error.code }, { ...retryAfter, Connection: 'close' });
    });
    // The client went away before the answer was complete: stop the upstream work too (not an upstream failure).
    res.once('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      clearTimeout(deadline);
      upstream?.destroy();
    });
    send(0);
  };
  return Object.assign(proxy, {
    closeStreams() {
      for (const close of [...openStreams]) close();
    },
  });
}

function hostAndPort(target: string): { host: string; port: number } {
  const base = new URL(target);
  return { host: base.hostname, port: base.port ? Number(base.port) : 80 };
}

/**
 * The service answered before the client's body was all here (it refused the request unread): the rest will never be
 * read, so once the answer is sent the body stops, the service's socket is let go and the client's connection closes,
 * at once instead of at the body's deadline.
 */
function endWithEarlyAnswer(res: ServerResponse, upstream: ClientRequest, body: StreamedBody): void {
  res.setHeader('Connection', 'close');
  res.once('finish', () => {
    upstream.destroy();
    body.stream.destroy();
  });
}

/** A request for a Server-Sent Events stream: a `GET …/stream` path, or one that accepts `text/event-stream` (EventSource sends it). */
function isStreamRequest(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  return pathOf(req.url ?? '').endsWith('/stream') || String(req.headers.accept ?? '').toLowerCase().includes('text/event-stream');
}

function isEventStream(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  return type !== undefined && /^\s*text\/event-stream\s*(;|$)/i.test(type);
}

/** Names a `Connection` header lists: hop-by-hop for this message only. */
function connectionNamed(value: string | string[] | undefined): Set<string> | undefined {
  if (!value) return undefined;
  // The usual values name no other header (`keep-alive` is hop-by-hop already): no set to build.
  if (typeof value === 'string' && COMMON_CONNECTION_VALUES.has(value.toLowerCase())) return undefined;
  const names = (Array.isArray(value) ? value.join(',') : value).split(',').map((name) => name.trim().toLowerCase());
  return new Set(names.filter(Boolean));
}

const COMMON_CONNECTION_VALUES = new Set(['keep-alive', 'close']);

/** Request headers the gateway sets itself for the upstream (the client's are replaced, never sent twice). */
const REPLACED = new Set(['content-length', 'x-request-id', 'traceparent', 'x-forwarded-for', 'x-forwarded-proto']);

/**
 * The upstream request's headers as a flat `[name, value, …]` list: node:http writes such a list as it is, without
 * building its own header map (one validation per header instead of two).
 */
export function forwardedHeaders(req: IncomingMessage, call: ProxyCall): string[] {
  const headers: string[] = [];
  const incoming = req.headers;
  const named = connectionNamed(incoming.connection);
  // tracestate belongs to the caller's traceparent: when that was missing or invalid, the trace is new and it goes too.
  const keepTracestate = call.span.continued;
  const host = incoming.host;
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name) || REPLACED.has(name) || named?.has(name)) continue;
    if ((name === 'tracestate' && !keepTracestate) || (name === 'x-forwarded-host' && host)) continue;
    if (typeof value === 'string') headers.push(name, value);
    else for (const each of value) headers.push(name, each);
  }
  if (Buffer.isBuffer(call.body)) headers.push('content-length', String(call.body.length));
  else if (call.body?.length !== undefined) headers.push('content-length', String(call.body.length));
  else if (call.body) headers.push('transfer-encoding', 'chunked');
  // An empty body the client announced (`Content-Length: 0`, a bodiless POST from a browser) stays an empty body: without
  // the header node:http would send a POST chunked, which a service takes for a body without a Content-Type (415).
  else if (incoming['content-length'] !== undefined) headers.push('content-length', '0');
  const clientIp = req.socket.remoteAddress ?? '';
  const priorFor = incoming['x-forwarded-for'];
  headers.push(
    'x-request-id',
    call.requestId,
    'traceparent',
    call.span.traceparent,
    'x-forwarded-for',
    priorFor ? `${String(priorFor)}, ${clientIp}` : clientIp,
    'x-forwarded-proto',
    (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
  );
  if (host) headers.push('x-forwarded-host', host);
  return headers;
}

function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const named = connectionNamed(headers.connection);
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named?.has(name)) out[name] = value;
  }
  return out;
}
