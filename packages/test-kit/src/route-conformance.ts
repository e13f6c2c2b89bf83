import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { responseConformance, routeMatcher, type RouteSpec } from '@platform/service-kit/route-table';

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
export function recordConformance(table: readonly RouteSpec[]): ConformanceRecorder {
  const check = responseConformance(table);
  const pathRoutes = table.map((spec) => ({ method: spec.method, find: routeMatcher([spec]) }));
  const problems: string[] = [];
  let count = 0;

  const onRequest = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const method = (request.method ?? 'GET').toLowerCase();
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (method === 'head' || method === 'options' || !pathRoutes.some(({ method: declared, find }) => find(declared, path))) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
    };
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
      count += 1;
      const headers = Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, Array.isArray(value) ? value : value === undefined ? undefined : String(value)]));
      const text = Buffer.concat(chunks).toString(isText(headers['content-type']) ? 'utf8' : 'latin1');
      const found = check({ method, path, status: response.statusCode, headers, body: bodyOf(text, headers['content-type']) });
      if (found.length) problems.push(`${method.toUpperCase()} ${request.url} → ${response.statusCode} does not match the route table:\n  ${found.join('\n  ')}`);
    });
  };

  subscribe('http.server.request.start', onRequest);
  return {
    take: () => problems.splice(0, problems.length),
    checked: () => count,
    stop: () => unsubscribe('http.server.request.start', onRequest),
  };
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
