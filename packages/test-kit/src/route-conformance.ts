import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { responseConformance, routeMatcher, type ObservedAnswer, type RouteSpec } from '@platform/service-kit/route-table';

export interface ConformanceRecorder {
  /** The problems found since the last call (each names the request and the mismatch), and forgets them. */
  take(): string[];
  /** How many answers were checked so far. */
  checked(): number;
  /** Stops watching this process's HTTP servers. */
  stop(): void;
}

type Chunk = string | Buffer | Uint8Array;

/**
 * Checks every answer an HTTP server of this process sends on a route of `table` (any framework, fast lanes included:
 * it watches Node's `http.server.request.start` channel and the bytes written) with the table's `responseConformance`.
 * An answer to a path no route of the table has, or a 405 for a method the path does not take, is left alone.
 */
export interface ConformanceOptions {
  /** Answers to leave alone (another server of the test process that happens to share a path with the table). */
  skip?(answer: ObservedAnswer): boolean;
}

export function recordConformance(table: readonly RouteSpec[], options: ConformanceOptions = {}): ConformanceRecorder {
  const check = responseConformance(table);
  const pathRoutes = table.map((spec) => ({ method: spec.method, find: routeMatcher([spec]) }));
  const problems: string[] = [];
  let count = 0;

  const onRequest = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const method = (request.method ?? 'GET').toLowerCase();
    const url = request.url ?? '/';
    const path = new URL(url, 'http://localhost').pathname;
    if (method === 'head' || method === 'options' || !pathRoutes.some(({ method: declared, find }) => find(declared, path))) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
    };
    const written: Record<string, string | string[] | undefined> = {};
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
    response.writeHead = ((...args: unknown[]) => {
      // Headers given to writeHead (as the fast lanes send them) never show in getHeaders().
      const given = args.find((arg, index) => index > 0 && arg && typeof arg === 'object');
      const pairs: Array<[string, unknown]> = Array.isArray(given)
        ? (given as unknown[]).flatMap((_, index, all) => (index % 2 === 0 ? [[String(all[index]), all[index + 1]] as [string, unknown]] : []))
        : Object.entries((given ?? {}) as Record<string, unknown>);
      for (const [name, value] of pairs) written[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : value === undefined ? undefined : String(value);
      return writeHead(...args);
    }) as ServerResponse['writeHead'];
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.write = ((chunk: Chunk, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    response.once('finish', () => {
      if (response.statusCode === 405) return;
      const headers = { ...written, ...Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, Array.isArray(value) ? value : value === undefined ? undefined : String(value)])) };
      const text = decoded(Buffer.concat(chunks), headers['content-encoding']).toString(isText(headers['content-type']) ? 'utf8' : 'latin1');
      const answer = { method, path, status: response.statusCode, headers, body: bodyOf(text, headers['content-type']) };
      if (options.skip?.(answer)) return;
      count += 1;
      const found = check(answer);
      if (found.length) problems.push(`${method.toUpperCase()} ${url} → ${response.statusCode} does not match the route table:\n  ${found.join('\n  ')}`);
    });
  };

  subscribe('http.server.request.start', onRequest);
  return {
    take: () => problems.splice(0, problems.length),
    checked: () => count,
    stop: () => unsubscribe('http.server.request.start', onRequest),
  };
}

/** The bytes as sent before a compressing server (the gateway) encoded them. */
function decoded(bytes: Buffer, encoding: string | string[] | undefined): Buffer {
  if (bytes.length === 0) return bytes;
  switch (String(encoding ?? '').toLowerCase()) {
    case 'gzip':
      return gunzipSync(bytes);
    case 'br':
      return brotliDecompressSync(bytes);
    case 'deflate':
      return inflateSync(bytes);
    default:
      return bytes;
  }
}

function isText(contentType: string | string[] | undefined): boolean {
  const type = String(contentType ?? '');
  return !type || /json|text|javascript|svg|xml/.test(type);
}

/** JSON answers are parsed (as a client would read them); anything else is checked as its text. */
function bodyOf(text: string, contentType: string | string[] | undefined): unknown {
  if (text.length === 0) return undefined;
  if (!/json/.test(String(contentType ?? ''))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
