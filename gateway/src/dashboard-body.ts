import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { BodyRefusal, tooLarge, type BodyLimits, type StreamedBody } from './request-body';
import { pathOf, type Upstream } from './routes';

export interface DashboardBodyCaps {
  /** `POST /admin/v1/certificates/batch` (CSV or JSON batch, the certificate service takes up to 5 MiB). */
  batchBytes: number;
  /**
   * `POST /admin/v1/templates`, `PATCH /admin/v1/templates/{id}` and their previews (`POST …/templates/preview`,
   * `POST …/templates/{id}/preview`): templates with images, up to 3 MiB there.
   */
  templateBytes: number;
  /** Every other admin route of both services (their JSON limit, 100 kB). */
  defaultBytes: number;
}

/** The largest body the service itself accepts on this admin route: the gateway refuses more before forwarding. */
export function dashboardBodyCap(upstream: Upstream, method: string | undefined, upstreamUrl: string, caps: DashboardBodyCaps): number {
  if (upstream !== 'certificate') return caps.defaultBytes;
  const path = pathOf(upstreamUrl);
  if (method === 'POST' && path === '/admin/v1/certificates/batch') return caps.batchBytes;
  if (method === 'POST' && /^\/admin\/v1\/templates(?:\/preview|\/[^/]+\/preview)?$/.test(path)) return caps.templateBytes;
  if (method === 'PATCH' && /^\/admin\/v1\/templates\/[^/]+$/.test(path)) return caps.templateBytes;
  return caps.defaultBytes;
}

export type DashboardBodySize = { ok: true; size: { length: number | undefined; reserve: number } | undefined } | { ok: false; refusal: BodyRefusal };

/**
 * What a dashboard request's body will take, before a byte of it is read: none, a 413 when its Content-Length is over
 * the route's cap, else its length (undefined: chunked) and the bytes it reserves among the uploads in flight.
 */
export function dashboardBodySize(req: IncomingMessage, maxBytes: number): DashboardBodySize {
  const lengthHeader = req.headers['content-length'];
  if (lengthHeader === undefined && req.headers['transfer-encoding'] === undefined) return { ok: true, size: undefined };
  const length = lengthHeader === undefined ? undefined : Number(lengthHeader);
  if (length !== undefined && length > maxBytes) return { ok: false, refusal: tooLarge(maxBytes) };
  if (length === 0) return { ok: true, size: undefined };
  return { ok: true, size: { length, reserve: length ?? maxBytes } };
}

/**
 * A dashboard request's body, streamed to the service rather than read whole: its bytes pass through a counter that
 * stops it with a 413 past the route's cap (a chunked body) and with a 408 when it is not complete `timeoutMs` after
 * the request arrived. Backpressure holds the client's socket until the service reads on, so at most the counter's
 * two 16 kB buffers (plus the sockets' own) of each upload are in the gateway's memory at a time.
 */
export function streamDashboardBody(req: IncomingMessage, size: { length: number | undefined; reserve: number }, limits: BodyLimits, arrivedAt: number): StreamedBody {
  const counter = new ByteCounter(limits.maxBytes);
  const timer = setTimeout(
    () => counter.destroy(new BodyRefusal(408, `The request body did not arrive within ${limits.timeoutMs} ms`, 'request_timeout')),
    Math.max(0, limits.timeoutMs - (Date.now() - arrivedAt)),
  );
  counter.once('close', () => clearTimeout(timer));
  counter.once('end', () => clearTimeout(timer));
  req.once('close', () => {
    if (!req.complete) counter.destroy(new Error('The client closed the request before its body was complete'));
  });
  req.pipe(counter);
  return { stream: counter, ...size };
}

/** Passes bytes on untouched; fails with a 413 refusal once more than `maxBytes` went through. */
class ByteCounter extends Transform {
  private seen = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return callback(tooLarge(this.maxBytes));
    callback(null, chunk);
  }
}
