import { isHttpUrl } from './config';
import { stopOpenTelemetryTracer, useOpenTelemetryTracer } from './trace-context';

/** What a process keeps from `startTracing`: a closer that flushes the spans not yet exported. */
export interface Tracing {
  /** True when spans are exported over OTLP. */
  exporting: boolean;
  shutdown(): Promise<void>;
}

/**
 * Call once at process start. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, loads the OpenTelemetry Node SDK (imported
 * only then, so a process without it pays nothing) and exports the process's spans over OTLP/HTTP to that endpoint,
 * named by `OTEL_SERVICE_NAME` or else `defaultServiceName`. Traces only: metrics stay on `/metrics` and logs on
 * stdout. Without it, trace ids are still taken from `traceparent` or generated, propagated and logged. An endpoint
 * that is not an http(s) URL ends start-up with one line naming the variable.
 */
export async function startTracing(defaultServiceName: string): Promise<Tracing> {
  const env = process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return { exporting: false, shutdown: async () => undefined };
  if (!isHttpUrl(endpoint)) {
    process.stderr.write(`${defaultServiceName}: OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (the collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318).\n`);
    process.exit(1);
  }
  const [{ NodeSDK }, { OTLPTraceExporter }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/exporter-trace-otlp-http')]);
  const sdk = new NodeSDK({
    // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and the other OTEL_EXPORTER_OTLP_* settings) itself.
    traceExporter: new OTLPTraceExporter(),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || defaultServiceName,
    // No automatic instrumentation: requests, the outbox and webhook attempts make their spans themselves.
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  useOpenTelemetryTracer(defaultServiceName);
  return {
    exporting: true,
    async shutdown() {
      stopOpenTelemetryTracer();
      await sdk.shutdown();
    },
  };
}

