/**
 * A fake of the gateway for component tests: `fetch` answers from a table of `METHOD /path` routes and records every
 * request, so a test can assert both what the user sees and what the app sent.
 */
import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  credentials?: RequestCredentials;
}

export interface FakeReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeRoute = FakeReply | ((request: FakeRequest) => FakeReply);

export function problem(status: number, code: string, detail: string, details?: { path: string; message: string }[]): FakeReply {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: `https://docs.partner-platform.example/errors/${code}`, title: 'Error', status, detail, error: detail, code, ...(details ? { details } : {}) },
  };
}

export function fakeApi(routes: Record<string, FakeRoute>) {
  const requests: FakeRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://127.0.0.1:8080');
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value]));
    const raw = typeof init.body === 'string' ? init.body : undefined;
    let body: unknown = raw;
    if (raw !== undefined && headers['content-type']?.includes('json')) body = JSON.parse(raw);
    const request: FakeRequest = { method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, headers, body, credentials: init.credentials };
    requests.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const reply = typeof route === 'function' ? route(request) : (route ?? problem(404, 'route_not_found', `No route ${request.method} ${request.path}`));
    const status = reply.status ?? 200;
    const content = reply.body === undefined ? null : JSON.stringify(reply.body);
    return new Response(status === 204 ? null : content, {
      status,
      headers: { 'content-type': 'application/json', ...(reply.headers ?? {}) },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    requests,
    /** Requests to `METHOD /path`. */
    calls: (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key),
    routes,
  };
}
