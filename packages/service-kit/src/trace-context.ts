import { randomFillSync } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';

/** One position in a trace (W3C Trace Context): the trace, the span that is the parent of the next hop, its flags. */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  spanId: string;
  /** 2 lowercase hex digits; `01` means the trace is sampled (recorded). */
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * A `traceparent` header's trace context, or undefined when it is not a valid one: lowercase hex only, trace and
 * parent ids not all zero, version `ff` refused, version `00` exactly 55 characters, and a later version read as `00`
 * when what follows its first four fields starts with `-`. An invalid header is never propagated: the caller starts a
 * new trace instead.
 */
export function parseTraceparent(value: unknown): TraceContext | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return undefined;
  return { traceId, spanId, flags };
}

/** The `traceparent` header (version 00) that makes this context the parent of the next hop. */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.flags}`;
}

export type SpanKindName = 'server' | 'client' | 'internal';

export interface SpanEnd {
  /** The HTTP status answered (server) or received (client); 5xx and none mark the span as an error. */
  statusCode?: number | null;
  /** The route pattern, for the span's name and `http.route`. */
  route?: string;
  error?: string | null;
}

/** The span of one unit of work in this process (a request, a webhook attempt). */
export interface TraceSpan {
  /** This span's place in the trace: the parent of whatever it calls. */
  readonly context: TraceContext;
  /** `traceparent` to send with an outgoing request made inside this span. */
  readonly traceparent: string;
  /** True when the parent came from the caller (a valid `traceparent`), false when this span started a new trace. */
  readonly continued: boolean;
  /** Whether an OpenTelemetry SDK records it (only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set); ending costs nothing otherwise. */
  readonly recording: boolean;
  end(outcome?: SpanEnd): void;
}

let tracer: Tracer | undefined;

/** Called by the tracing entry point once the OpenTelemetry SDK is registered: spans are recorded and exported from then on. */
export function useOpenTelemetryTracer(name: string): void {
  tracer = trace.getTracer(name);
}

/** Called when the SDK shuts down: spans are no longer recorded. */
export function stopOpenTelemetryTracer(): void {
  tracer = undefined;
}

/**
 * Starts a span: a child of `parent` (same trace id, a new span id, the parent's flags), or the root of a new trace
 * when there is no valid parent. Without the OpenTelemetry SDK the ids are generated here and nothing is recorded;
 * with it the SDK makes the span (its sampler sets the flags) and exports it when it ends.
 */
export function startSpan(name: string, kind: SpanKindName, parent: TraceContext | undefined): TraceSpan {
  if (!tracer) {
    const context: TraceContext = { traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId(), flags: parent?.flags ?? '00' };
    return { context, traceparent: formatTraceparent(context), continued: parent !== undefined, recording: false, end: noop };
  }
  const parentContext = parent
    ? trace.setSpanContext(ROOT_CONTEXT, { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parseInt(parent.flags, 16), isRemote: true })
    : ROOT_CONTEXT;
  const span = tracer.startSpan(name, { kind: SPAN_KINDS[kind] }, parentContext);
  const spanContext = span.spanContext();
  const context: TraceContext = { traceId: spanContext.traceId, spanId: spanContext.spanId, flags: (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0') };
  return { context, traceparent: formatTraceparent(context), continued: parent !== undefined, recording: true, end: (outcome) => endSpan(span, name, outcome) };
}

const SPAN_KINDS: Record<SpanKindName, SpanKind> = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

function endSpan(span: Span, name: string, outcome: SpanEnd = {}): void {
  if (outcome.route) {
    span.updateName(`${name} ${outcome.route}`);
    span.setAttribute('http.route', outcome.route);
  }
  if (typeof outcome.statusCode === 'number') span.setAttribute('http.response.status_code', outcome.statusCode);
  const failed = outcome.error || outcome.statusCode === null || (typeof outcome.statusCode === 'number' && outcome.statusCode >= 500);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? undefined });
  span.end();
}

function newTraceId(): string {
  return randomHex(16);
}

function newSpanId(): string {
  return randomHex(8);
}

// Random bytes drawn 4 KiB at a time (as node's randomUUID does): one randomBytes call per id was a visible share
// of a fast request's CPU (bench:verify profile). Each byte is handed out once.
const RANDOM_POOL = Buffer.alloc(4096);
let randomOffset = RANDOM_POOL.length;

function randomHex(bytes: number): string {
  if (randomOffset + bytes > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    randomOffset = 0;
  }
  const hex = RANDOM_POOL.toString('hex', randomOffset, randomOffset + bytes);
  randomOffset += bytes;
  return hex;
}

function noop(): void {}
