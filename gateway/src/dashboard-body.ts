import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { BodyRefusal, tooLarge, type BodyLimits, type StreamedBody } from './request-body';
import { pathOf, type Upstream } from './routes';
import type { Refusal, Upload } from './upload-budget';

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

export type DashboardBodySize = { ok: true; size: { length: number | undefined } | undefined } | { ok: false; refusal: BodyRefusal };

/**
 * What a dashboard request's body will be, before a byte of it is read: none, a 413 when its Content-Length is over
 * the route's cap, else its declared length (undefined: chunked). The length reserves nothing: bytes are charged to the
 * uploads in flight as they arrive (`streamDashboardBody`).
 */
export function dashboardBodySize(req: IncomingMessage, maxBytes: number): DashboardBodySize {
  const lengthHeader = req.headers['content-length'];
  if (lengthHeader === undefined && req.headers['transfer-encoding'] === undefined) return { ok: true, size: undefined };
  const length = lengthHeader === undefined ? undefined : Number(lengthHeader);
  if (length !== undefined && length > maxBytes) return { ok: false, refusal: tooLarge(maxBytes) };
  if (length === 0) return { ok: true, size: undefined };
  return { ok: true, size: { length } };
}

/** The refusal of an upload's bytes by the in-flight caps: the account's (429) or the process's shared total (503). */
export function uploadRefusal(scope: Refusal): BodyRefusal {
  return scope === 'account'
    ? new BodyRefusal(429, 'Too many uploads in flight for this account; retry when one is done', 'too_many_uploads', 1)
    : new BodyRefusal(503, 'The gateway is busy with other uploads; retry shortly', 'uploads_busy', 1);
}

/**
 * A dashboard request's body, streamed to the service rather than read whole: its bytes pass through a counter that
 * charges each chunk to the upload's share of the in-flight caps as it arrives (429/503 once they refuse it), and
 * stops the body with a 413 past the route's cap (a chunked body), with a 408 when it is not complete `timeoutMs`
 * after the request arrived, and with a 408 when no byte came for `idleMs` (a stalled body gives its share back).
 * Backpressure holds the client's socket until the service reads on, so at most the counter's two 16 kB buffers
 * (plus the sockets' own) of each upload are in the gateway's memory at a time.
 */
export function streamDashboardBody(req: IncomingMessage, size: { length: number | undefined }, limits: BodyLimits & { idleMs: number }, arrivedAt: number, upload: Upload): StreamedBody {
  const counter = new ByteCounter(limits.maxBytes, upload);
  const deadline = setTimeout(
    () => counter.destroy(new BodyRefusal(408, `The request body did not arrive within ${limits.timeoutMs} ms`, 'request_timeout')),
    Math.max(0, limits.timeoutMs - (Date.now() - arrivedAt)),
  );
  // Paused by backpressure, the body waits for the service, not for its client: that is no stall.
  const stalled = () => (req.isPaused() ? idle.refresh() : counter.destroy(new BodyRefusal(408, `No byte of the request body arrived for ${limits.idleMs} ms`, 'request_timeout')));
  const idle = setTimeout(stalled, limits.idleMs);
  req.on('data', () => idle.refresh());
  const stop = () => {
    clearTimeout(deadline);
    clearTimeout(idle);
  };
  counter.once('close', stop);
  counter.once('end', stop);
  counter.once('error', () => upload.release());
  req.once('close', () => {
    if (!req.complete) counter.destroy(new Error('The client closed the request before its body was complete'));
  });
  req.pipe(counter);
  return { stream: counter, ...size };
}

/** Passes bytes on untouched, charging each chunk to its upload; fails with a 413 once more than `maxBytes` went through. */
class ByteCounter extends Transform {
  private seen = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly upload: Upload,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return callback(tooLarge(this.maxBytes));
    const refused = this.upload.charge(chunk.length);
    if (refused) return callback(uploadRefusal(refused));
    callback(null, chunk);
  }
}
