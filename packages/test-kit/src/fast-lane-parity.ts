import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@platform/service-kit/logger';
import { createMetrics, type Metrics } from '@platform/service-kit/metrics';

/** One request a fast-lane parity test sends to both servers. */
export interface ParityCase {
  name: string;
  method?: 'GET' | 'POST' | 'HEAD';
  path: string;
  headers?: Record<string, string>;
  /** Sent as it is. */
  body?: string;
  /** Whether the fast lane answers it itself (otherwise Express does, in both servers). */
  fast: boolean;
}

/** What one server answered and logged for a case. */
export interface ParitySide {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Its request log line. */
  line: Record<string, unknown>;
}

export interface ParityObservation {
  /** The case's name, method and path: the label of every comparison. */
  label: string;
  testCase: ParityCase;
  plain: ParitySide;
  lane: ParitySide;
  /** Whether the request reached Express in the server with the lane. */
  reachedExpress: boolean;
}

export interface ParityRun {
  observations: ParityObservation[];
  /** `http_request_duration_seconds_count` lines of each server's metrics, sorted. */
  requestCounts: { plain: string[]; lane: string[] };
}

type BuildApp = (logger: Logger, metrics: Metrics) => RequestListener;
type WrapInLane = (deps: { logger: Logger; metrics: Metrics }, app: RequestListener) => RequestListener;

interface Served {
  base: string;
  server: Server;
  lines: Record<string, unknown>[];
  metrics: Metrics;
  expressRequests: () => number;
}

async function serve(service: string, buildApp: BuildApp, wrap: WrapInLane | undefined): Promise<Served> {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(service, 'info', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  const metrics = createMetrics(service);
  const app = buildApp(logger, metrics);
  let expressRequests = 0;
  const counting: RequestListener = (req, res) => {
    expressRequests += 1;
    app(req, res);
  };
  const server = createServer(wrap ? wrap({ logger, metrics }, counting) : counting);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, lines, metrics, expressRequests: () => expressRequests };
}

async function send(target: Served, testCase: ParityCase, index: number): Promise<ParitySide> {
  const res = await fetch(`${target.base}${testCase.path}`, { method: testCase.method ?? 'GET', headers: testCase.headers, body: testCase.body });
  const text = await res.text();
  while (target.lines.filter((line) => line.msg === 'request').length <= index) await new Promise((resolve) => setImmediate(resolve));
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  return { status: res.status, headers, text, line: target.lines.filter((line) => line.msg === 'request')[index]! };
}

/**
 * Sends every case, in order, to a server without the fast lane and to one with it (each with its own logger, metrics
 * and count of requests that reached Express), and answers what each side answered and logged, for the test to
 * compare: a fast lane must be invisible to partners, log readers and dashboards.
 */
export async function runFastLaneParity(service: string, buildApp: BuildApp, wrap: WrapInLane, cases: ParityCase[]): Promise<ParityRun> {
  const plain = await serve(service, buildApp, undefined);
  const lane = await serve(service, buildApp, wrap);
  try {
    const observations: ParityObservation[] = [];
    for (const [index, testCase] of cases.entries()) {
      const before = lane.expressRequests();
      const plainSide = await send(plain, testCase, index);
      const laneSide = await send(lane, testCase, index);
      observations.push({ label: `${testCase.name}: ${testCase.method ?? 'GET'} ${testCase.path}`, testCase, plain: plainSide, lane: laneSide, reachedExpress: lane.expressRequests() > before });
    }
    const counts = async (metrics: Metrics) =>
      (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count')).sort();
    return { observations, requestCounts: { plain: await counts(plain.metrics), lane: await counts(lane.metrics) } };
  } finally {
    await Promise.all([plain, lane].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Whether the case's answer carries a request id of the server's own making (none given, or one it refused). */
function generatedRequestId(testCase: ParityCase): boolean {
  const given = testCase.headers?.['X-Request-Id'];
  return !given || given.includes(' ');
}

/** The headers without what differs from call to call: the date, a generated request id, and what `vary` names. */
export function comparableHeaders(side: ParitySide, testCase: ParityCase, vary: string[] = []): Record<string, string> {
  const { date: _date, ...rest } = side.headers;
  if (generatedRequestId(testCase)) delete rest['x-request-id'];
  for (const name of vary) delete rest[name];
  return rest;
}

/**
 * The log line without what differs from run to run: time, duration, process fields, the trace id and a generated
 * request id. Throws when the line has no duration, no well-formed trace id, or a request id other than the answer's.
 */
export function comparableLine(side: ParitySide, testCase: ParityCase): Record<string, unknown> {
  const { time: _time, duration_ms: duration, trace_id: traceId, pid: _pid, hostname: _hostname, ...rest } = side.line;
  if (typeof duration !== 'number') throw new Error(`log line without duration_ms: ${JSON.stringify(side.line)}`);
  if (typeof traceId !== 'string' || !/^[0-9a-f]{32}$/.test(traceId)) throw new Error(`log line without a trace id: ${JSON.stringify(side.line)}`);
  if (rest.request_id !== side.headers['x-request-id']) throw new Error(`log line request_id ${String(rest.request_id)} is not the answer's ${side.headers['x-request-id']}`);
  if (generatedRequestId(testCase)) delete rest.request_id;
  return rest;
}
