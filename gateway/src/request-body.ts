import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

export interface BodyLimits {
  maxBytes: number;
  /** Counted from the request's arrival. */
  timeoutMs: number;
}

export type BodyOutcome = { ok: true; body: Buffer | undefined } | { ok: false; status: 408 | 413 | 400; error: string; code: string };

const NO_BODY: BodyOutcome = { ok: true, body: undefined };

/**
 * Reads a request body in full before any upstream socket is taken, so a client trickling its body ties up only
 * its own connection. Bodies over `maxBytes` are refused (413, before reading when Content-Length says so);
 * a body not complete `timeoutMs` after the request arrived is refused with 408. The bytes are kept untouched.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits, arrivedAt: number): Promise<BodyOutcome> {
  const lengthHeader = req.headers['content-length'];
  if (!hasBody(req)) return Promise.resolve(NO_BODY);
  if (lengthHeader !== undefined && Number(lengthHeader) > limits.maxBytes) return Promise.resolve(tooLargeOutcome(limits.maxBytes));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.removeListener('data', onData);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return settle(tooLargeOutcome(limits.maxBytes));
      chunks.push(chunk);
    };
    const timer = setTimeout(
      () => settle({ ok: false, status: 408, error: `The request body did not arrive within ${limits.timeoutMs} ms`, code: 'request_timeout' }),
      Math.max(0, limits.timeoutMs - (Date.now() - arrivedAt)),
    );
    req.on('data', onData);
    req.once('end', () => settle({ ok: true, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) }));
    req.once('error', () => settle({ ok: false, status: 400, error: 'The request body could not be read', code: 'bad_request' }));
  });
}

/** Whether a request has a body at all (HTTP/1.1: a Content-Length or a Transfer-Encoding says so). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

function tooLargeOutcome(maxBytes: number): BodyOutcome {
  const refusal = tooLarge(maxBytes);
  return { ok: false, status: 413, error: refusal.message, code: refusal.code };
}

/** A body the gateway stops while streaming it (too large, too slow): answered with its status as JSON. */
export class BodyRefusal extends Error {
  constructor(
    readonly status: 408 | 413 | 429 | 503,
    message: string,
    readonly code: string,
    /** Seconds for `Retry-After` (a refusal for now, not for this body). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export function tooLarge(maxBytes: number): BodyRefusal {
  return new BodyRefusal(413, `The request body is larger than ${maxBytes} bytes`, 'payload_too_large');
}

/** A body forwarded as it arrives (the dashboard's admin routes) rather than read whole first. */
export interface StreamedBody {
  stream: Readable;
  /** The client's Content-Length (undefined: chunked). */
  length: number | undefined;
}
