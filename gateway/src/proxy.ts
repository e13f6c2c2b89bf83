import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Logger } from '@platform/service-kit/logger';

/** Headers that describe one hop, not the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade']);

export type UpstreamProxy = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A streaming proxy to one upstream on node:http with a keep-alive agent: the request body is piped through
 * untouched (payment signatures are over the raw bytes), the answer is piped back as it comes. A refused upstream
 * is a 502 JSON, one slower than `timeoutMs` a 504 JSON. Written on node:http rather than http-proxy-middleware:
 * that library's per-request work cost several times the CPU of this whole function on the hot path (bench:verify).
 */
export function createUpstreamProxy(name: string, target: string, timeoutMs: number, logger: Logger): UpstreamProxy {
  const base = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10000 });
  const port = base.port ? Number(base.port) : 80;

  return (req, res) => {
    let timedOut = false;
    const upstream = request({ host: base.hostname, port, method: req.method, path: req.url, headers: forwardedHeaders(req), agent });
    upstream.setTimeout(timeoutMs, () => {
      timedOut = true;
      upstream.destroy(new Error('upstream timeout'));
    });
    upstream.once('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders(answer.headers));
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      logger.warn({ upstream: name, err: error.code ?? error.message, timedOut }, 'upstream failed');
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      const body = timedOut
        ? { error: `The ${name} service did not answer in time`, code: 'upstream_timeout' }
        : { error: `The ${name} service is unavailable`, code: 'upstream_unavailable' };
      const text = JSON.stringify(body);
      res.writeHead(timedOut ? 504 : 502, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
    // The client went away before the answer was complete: stop the upstream work too.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}

function forwardedHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const clientIp = req.socket.remoteAddress ?? '';
  const priorFor = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = priorFor ? `${String(priorFor)}, ${clientIp}` : clientIp;
  headers['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'transfer-encoding') out[name] = value;
  }
  return out;
}
