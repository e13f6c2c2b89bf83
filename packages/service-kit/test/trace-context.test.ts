import { spawnSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { createJsonApp, createLogger, currentTraceparent, formatTraceparent, parseTraceparent, startSpan } from '../src';

const packageDir = path.resolve(__dirname, '..');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('traceparent parsing', () => {
  it('reads a valid version 00 header', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE_ID, spanId: PARENT_ID, flags: '01' });
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-00`)?.flags).toBe('00');
  });

  it('reads a later version as version 00 when what follows its four fields starts with a dash', () => {
    expect(parseTraceparent(`01-${TRACE_ID}-${PARENT_ID}-01`)).toEqual({ traceId: TRACE_ID, spanId: PARENT_ID, flags: '01' });
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-comes-next`)).toEqual({ traceId: TRACE_ID, spanId: PARENT_ID, flags: '01' });
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01x`)).toBeUndefined();
  });

  it.each([
    ['version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['version 00 with more fields', `${VALID}-extra`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['an all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['uppercase hex', VALID.toUpperCase()],
    ['a short trace id', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`],
    ['a long parent id', `00-${TRACE_ID}-${PARENT_ID}0-01`],
    ['a non-hex digit', `00-${TRACE_ID.slice(0, -1)}g-${PARENT_ID}-01`],
    ['surrounding spaces', ` ${VALID} `],
    ['two headers joined', `${VALID}, ${VALID}`],
    ['an empty value', ''],
  ])('refuses %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('refuses what is not a single string', () => {
    expect(parseTraceparent(undefined)).toBeUndefined();
    expect(parseTraceparent([VALID, VALID])).toBeUndefined();
  });

  it('writes version 00', () => {
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: PARENT_ID, flags: '01' })).toBe(VALID);
  });
});

describe('spans without the OpenTelemetry SDK', () => {
  it('continue a parent: same trace id and flags, a new span id', () => {
    const span = startSpan('work', 'server', parseTraceparent(VALID));
    expect(span.context.traceId).toBe(TRACE_ID);
    expect(span.context.flags).toBe('01');
    expect(span.context.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(span.context.spanId).not.toBe(PARENT_ID);
    expect(span.continued).toBe(true);
    expect(parseTraceparent(span.traceparent)).toEqual(span.context);
  });

  it('start a new trace, not sampled, without a parent', () => {
    const first = startSpan('work', 'client', undefined);
    const second = startSpan('work', 'client', undefined);
    expect(parseTraceparent(first.traceparent)).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: first.context.spanId, flags: '00' });
    expect(first.context.traceId).not.toBe(second.context.traceId);
    expect(first.continued).toBe(false);
  });
});

function tracedApp() {
  const chunks: string[] = [];
  const app = createJsonApp({ logger: createLogger('test-service', 'info', { write: (line: string) => void chunks.push(line) }) });
  app.get('/work', (_req, res) => {
    res.json({ traceparent: currentTraceparent() });
  });
  const requestLines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request');
  return { app, requestLines };
}

describe('a service request', () => {
  it('continues a valid traceparent: what it causes carries the same trace and its request log line the trace id', async () => {
    const { app, requestLines } = tracedApp();
    const res = await request(app).get('/work').set('traceparent', VALID).set('X-Request-Id', 'req-trace-1').expect(200);
    const caused = parseTraceparent(res.body.traceparent);
    expect(caused).toEqual({ traceId: TRACE_ID, spanId: expect.any(String), flags: '01' });
    expect(caused!.spanId).not.toBe(PARENT_ID);
    expect(requestLines()).toEqual([expect.objectContaining({ request_id: 'req-trace-1', route: '/work', status: 200, trace_id: TRACE_ID })]);
  });

  it('replaces an invalid traceparent with a new trace and never passes the invalid one on', async () => {
    const { app, requestLines } = tracedApp();
    const invalid = `00-${'0'.repeat(32)}-${PARENT_ID}-01`;
    const res = await request(app).get('/work').set('traceparent', invalid).expect(200);
    const caused = parseTraceparent(res.body.traceparent);
    expect(caused).toBeDefined();
    expect(res.body.traceparent).not.toContain(PARENT_ID);
    expect(requestLines()[0]!.trace_id).toBe(caused!.traceId);
  });
});

/** Runs a script under tsx in a fresh process, as the services run (the SDK is imported at run time there). */
function runScript(script: string, env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ['--conditions=source', '--require', 'tsx/cjs', '-e', script], { cwd: packageDir, env: { ...process.env, ...env }, stdio: 'pipe' });
}

describe('the tracing entry point', () => {
  it('loads no OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is unset, even after a request span', () => {
    const script = `
      const { startTracing } = require('@platform/service-kit/tracing');
      const { startSpan } = require('@platform/service-kit');
      startTracing('quiet').then((tracing) => {
        startSpan('work', 'server', undefined).end();
        const loaded = Object.keys(require.cache).filter((file) => file.includes('sdk-node') || file.includes('exporter-trace-otlp'));
        console.log(JSON.stringify({ exporting: tracing.exporting, loaded }));
      });`;
    const result = spawnSync(process.execPath, ['--conditions=source', '--require', 'tsx/cjs', '-e', script], {
      cwd: packageDir,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ exporting: false, loaded: [] });
  });

  it('ends start-up with one line naming the variable when the endpoint is not an http(s) URL', () => {
    const script = `require('@platform/service-kit/tracing').startTracing('svc')`;
    const result = spawnSync(process.execPath, ['--conditions=source', '--require', 'tsx/cjs', '-e', script], {
      cwd: packageDir,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/)]);
  });

  it('exports the request spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set, in the caller’s trace, named by OTEL_SERVICE_NAME', async () => {
    const received: Array<{ url: string; body: string }> = [];
    const collector = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    const script = `
      const { startTracing } = require('@platform/service-kit/tracing');
      const { createJsonApp, currentTraceparent } = require('@platform/service-kit');
      startTracing('default-name').then(async (tracing) => {
        const app = createJsonApp();
        app.get('/work', (_req, res) => res.json({ traceparent: currentTraceparent() }));
        const server = app.listen(0, '127.0.0.1', async () => {
          const res = await fetch('http://127.0.0.1:' + server.address().port + '/work', { headers: { traceparent: ${JSON.stringify(VALID)} } });
          const body = await res.json();
          server.close();
          await tracing.shutdown();
          console.log(JSON.stringify({ exporting: tracing.exporting, caused: body.traceparent }));
        });
      });`;
    const child = runScript(script, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'traced-service' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => collector.close(resolve));

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const { exporting, caused } = JSON.parse(stdout) as { exporting: boolean; caused: string };
    expect(exporting).toBe(true);
    const context = parseTraceparent(caused);
    expect(context).toEqual({ traceId: TRACE_ID, spanId: expect.any(String), flags: '01' });
    expect(received.map((r) => r.url)).toEqual(['/v1/traces']);
    const exported = JSON.parse(received[0]!.body) as {
      resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
    };
    const resource = exported.resourceSpans[0]!;
    expect(resource.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'traced-service' } });
    const spans = resource.scopeSpans.flatMap((scope) => scope.spans);
    expect(spans).toEqual([expect.objectContaining({ traceId: TRACE_ID, spanId: context!.spanId, parentSpanId: PARENT_ID, name: 'GET /work' })]);
  });
});
