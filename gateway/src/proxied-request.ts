import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestLogLine } from '@platform/service-kit/request-log';
import type { TraceSpan } from '@platform/service-kit/trace-context';
import type { InFlightCounter } from './in-flight';

/** What a closed proxied request reports: its metrics (when its answer finished) and its log line. */
export type ProxiedRequestReport = (request: ProxiedRequest, seconds: number, line: Record<string, unknown>) => void;

/**
 * One proxied request's bookkeeping, with a single `close` listener: it leaves the in-flight count, ends the span and
 * reports the log line (same fields as the services' request log: request id, trace id, method, route, status (499: the
 * client left before an answer), duration in ms and a short fingerprint of the API key's hash) and its duration.
 */
export class ProxiedRequest {
  private readonly start = process.hrtime.bigint();
  private counted = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly requestId: string,
    private readonly span: TraceSpan,
    /** The route table entry (never the raw URL): labels the log line and the metrics. */
    readonly route: string,
    private readonly fingerprint: string | undefined,
    private readonly report: ProxiedRequestReport,
  ) {
    res.once('close', this.onClose);
  }

  /** Counts the request in its address's in-flight budget; false when that budget is spent. */
  enter(inFlight: InFlightCounter, bucket: string): boolean {
    if (!inFlight.enter(bucket)) return false;
    this.counted = true;
    this.leaveInFlight = () => {
      if (!this.counted) return;
      this.counted = false;
      inFlight.leave(bucket);
    };
    return true;
  }

  /** Leaves the in-flight count (an event stream does so as soon as it started); once at most. */
  leaveInFlight: () => void = () => undefined;

  private readonly onClose = () => {
    this.leaveInFlight();
    const seconds = Number(process.hrtime.bigint() - this.start) / 1e9;
    const ids = { request_id: this.requestId, trace_id: this.span.context.traceId, method: this.req.method, route: this.route };
    this.report(this, seconds, requestLogLine(this.res, this.start, ids, { api_key_fingerprint: this.fingerprint }));
    this.span.end({ statusCode: this.res.headersSent ? this.res.statusCode : null, route: this.route });
  };
}
