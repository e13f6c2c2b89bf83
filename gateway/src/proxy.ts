import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Logger, TraceSpan } from '@platform/service-kit';
import { compressedHeaders, compressibleAnswer, compressorFor, negotiateEncoding } from './compression';
import { answerJson } from './json-answer';

/** Headers that describe one hop, not the message: never forwarded either way (RFC 9110 §7.6.1), nor any header `Connection` names. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface ProxyCall {
  /** The whole request body, already read at the gateway (undefined: none). */
  body: Buffer | undefined;
  /** `Date.now()` when the request arrived: the upstream deadline counts from here, socket wait included. */
  arrivedAt: number;
  requestId: string;
  /** The gateway's span of this request: the upstream gets its traceparent (same trace, the gateway's span as parent). */
  span: TraceSpan;
  /** The upstream request target when it differs from the client's (`/dashboard/api/…` rewrites). */
  path?: string;
  /** Told the upstream's status once its answer starts. */
  onStatus?: (status: number) => void;
}

export type UpstreamProxy = (req: IncomingMessage, res: ServerResponse, call: ProxyCall) => void;

export interface UpstreamOptions {
  timeoutMs: number;
  maxSockets: number;
}

/**
 * A proxy to one upstream on node:http with a keep-alive agent. The body (read in full at the gateway) is sent
 * untouched (payment signatures are over the raw bytes); the answer is piped back as it comes. A refused upstream
 * is a 502 JSON; no answer within `timeoutMs` of the request's arrival (waiting for a pooled socket included), or an
 * answer that stalls that long, a 504 JSON. A client that hangs up first is not an upstream failure and is not logged as one.
 */
export function createUpstreamProxy(name: string, target: string, options: UpstreamOptions, logger: Logger): UpstreamProxy {
  const base = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets, keepAliveMsecs: 10000 });
  const port = base.port ? Number(base.port) : 80;
  const timeoutBody = { error: `The ${name} service did not answer in time`, code: 'upstream_timeout' };
  const unavailableBody = { error: `The ${name} service is unavailable`, code: 'upstream_unavailable' };

  return (req, res, call) => {
    let answered = false; // the upstream's answer started, or the gateway answered itself
    let clientGone = false;
    const upstream = request({ host: base.hostname, port, method: req.method, path: call.path ?? req.url, headers: forwardedHeaders(req, call), agent });
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
      upstream.destroy();
    };
    const deadline = setTimeout(giveUp, Math.max(0, options.timeoutMs - (Date.now() - call.arrivedAt)));
    upstream.setTimeout(options.timeoutMs, giveUp);
    upstream.once('response', (answer) => {
      clearTimeout(deadline);
      if (answered) return answer.resume();
      answered = true;
      const status = answer.statusCode ?? 502;
      call.onStatus?.(status);
      answer.once('error', () => res.destroy());
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
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      if (!answered) fail(error.code ?? error.message, false);
    });
    // The client went away before the answer was complete: stop the upstream work too (not an upstream failure).
    res.once('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      clearTimeout(deadline);
      upstream.destroy();
    });
    upstream.end(call.body);
  };
}

/** Names a `Connection` header lists: hop-by-hop for this message only. */
function connectionNamed(value: string | string[] | undefined): Set<string> | undefined {
  if (!value) return undefined;
  const names = (Array.isArray(value) ? value.join(',') : value).split(',').map((name) => name.trim().toLowerCase());
  return new Set(names.filter(Boolean));
}

function forwardedHeaders(req: IncomingMessage, call: ProxyCall): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const named = connectionNamed(req.headers.connection);
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named?.has(name)) headers[name] = value;
  }
  if (call.body) headers['content-length'] = call.body.length;
  else delete headers['content-length'];
  headers['x-request-id'] = call.requestId;
  headers.traceparent = call.span.traceparent;
  // tracestate belongs to the caller's traceparent: when that was missing or invalid, the trace is new and it goes too.
  if (!call.span.continued) delete headers.tracestate;
  const clientIp = req.socket.remoteAddress ?? '';
  const priorFor = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = priorFor ? `${String(priorFor)}, ${clientIp}` : clientIp;
  headers['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
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
