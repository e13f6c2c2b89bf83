import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { promisify } from 'node:util';

export type Encoding = 'br' | 'gzip';

/** JSON answers at or below this many bytes go out as they are: compressing them costs more than it saves. */
export const MIN_COMPRESSED_BYTES = 1024;

// Quality 5 gives most of brotli's gain at a fraction of its top quality's CPU (the gateway compresses on the fly).
const BROTLI_QUALITY = 5;

/**
 * The encoding to answer in, from `Accept-Encoding` (RFC 9110 §12.5.3): brotli over gzip, an encoding with `q=0` is
 * refused, `*` accepts both; none acceptable: undefined (identity).
 */
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of String(acceptEncoding).split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (encoding: Encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/** A JSON type (`application/json`, `application/problem+json`); event streams and everything else pass through as sent. */
function isJsonType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Whether an upstream answer is worth compressing: JSON, not already encoded, with a declared length over 1 kB.
 * The length is read first so small answers are decided without parsing anything.
 */
export function compressibleAnswer(status: number, headers: IncomingHttpHeaders): boolean {
  const length = Number(headers['content-length']);
  if (!(length > MIN_COMPRESSED_BYTES) || status === 204 || status === 304) return false;
  return headers['content-encoding'] === undefined && isJsonType(headers['content-type']);
}

/** The streaming compressor for one answer. */
export function compressorFor(encoding: Encoding): BrotliCompress | Gzip {
  return encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : createGzip();
}

/**
 * A compressible answer's headers: `Vary: Accept-Encoding` always; when compressed, the encoding named, the length
 * dropped (it changes) and a strong `ETag` made weak (the bytes differ from the identity answer it tagged; the
 * services compare `If-None-Match` weakly, so a 304 still works).
 */
export function compressedHeaders(headers: OutgoingHttpHeaders, encoding: Encoding | undefined): OutgoingHttpHeaders {
  const vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : 'Accept-Encoding';
  if (!encoding) return { ...headers, vary };
  const { 'content-length': _length, ...rest } = headers;
  const etag = typeof rest.etag === 'string' && rest.etag.startsWith('"') ? `W/${rest.etag}` : rest.etag;
  return { ...rest, vary, 'content-encoding': encoding, ...(etag === undefined ? {} : { etag }) };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A static body (the docs bundle, the description) with its compressed forms made once, on first demand, off the event loop. */
export class PrecompressedBody {
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(readonly identity: Buffer) {}

  encodedAs(encoding: Encoding): Promise<Buffer> {
    let pending = this.encoded.get(encoding);
    if (!pending) {
      pending = encoding === 'br' ? brotliAsync(this.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : gzipAsync(this.identity);
      this.encoded.set(encoding, pending);
    }
    return pending;
  }
}
