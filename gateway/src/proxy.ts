import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
import type { Logger } from '@platform/service-kit';

interface ProxiedRequest extends IncomingMessage {
  upstreamTimedOut?: boolean;
}

/**
 * A streaming proxy to one upstream: bodies pass through untouched (payment signatures are over the raw bytes),
 * connections are kept alive, a refused upstream is a 502 JSON and a slow one a 504 JSON.
 */
export function createUpstreamProxy(name: string, target: string, timeoutMs: number, logger: Logger): RequestHandler {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10000 });
  return createProxyMiddleware({
    target,
    agent,
    changeOrigin: false,
    xfwd: true,
    logger: undefined,
    on: {
      proxyReq(proxyReq, req: ProxiedRequest) {
        proxyReq.setTimeout(timeoutMs, () => {
          req.upstreamTimedOut = true;
          proxyReq.destroy(new Error('upstream timeout'));
        });
      },
      error(error, req: ProxiedRequest, res) {
        const timedOut = req.upstreamTimedOut === true;
        logger.warn({ upstream: name, err: (error as NodeJS.ErrnoException).code ?? error.message, timedOut }, 'upstream failed');
        if (!isServerResponse(res)) {
          res.destroy();
          return;
        }
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const status = timedOut ? 504 : 502;
        const body = timedOut
          ? { error: `The ${name} service did not answer in time`, code: 'upstream_timeout' }
          : { error: `The ${name} service is unavailable`, code: 'upstream_unavailable' };
        const text = JSON.stringify(body);
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      },
    },
  });
}

function isServerResponse(res: ServerResponse | Socket): res is ServerResponse {
  return typeof (res as ServerResponse).writeHead === 'function';
}
