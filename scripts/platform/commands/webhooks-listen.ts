/**
 * `pnpm platform webhooks listen` (like `stripe listen`): a local receiver on 127.0.0.1, registered as a webhook endpoint
 * through the public API with the partner's own key, that checks every delivery's Standard Webhooks signature with
 * `@platform/webhook-signature`, prints one line per delivery and answers 2xx to verified ones (400 to the rest, so the
 * platform retries them). Ctrl-C (or --exit-after n verified deliveries) deletes the endpoint and exits 0.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyStandardWebhook } from '@platform/webhook-signature';
import { readRunningState, workspaceRoot } from '../../running-state';
import { CommandError, UsageError, commaList, stringFlag, type CommandSpec, type Output } from '../cli';

const MAX_BODY_BYTES = 1024 * 1024;

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

interface Options {
  key: string;
  apiUrl: URL;
  events?: string[];
  port: number;
  exitAfter?: number;
}

export const webhooksListen: CommandSpec = {
  name: 'webhooks listen',
  summary: 'receive your webhooks locally: register a receiver on 127.0.0.1, verify and print each delivery',
  synopsis: '--key <mk_…> [--url http://127.0.0.1:8080] [--events a,b] [--port <n>] [--exit-after <n>]',
  details: [
    'Registers http://127.0.0.1:<port>/webhooks as an endpoint of the key\'s organization (POST /api/v1/webhooks; the key',
    'needs webhooks:manage), prints its signing secret once, then one line per delivery:',
    '  <time> <event type> <object id> ✓ signature verified      (answered 200)',
    '  <time> <event type> <object id> ✗ signature refused       (answered 400: the platform retries it)',
    '--url is the API base: by default the gateway of the running `pnpm start` (its .data/running.json), else',
    'http://127.0.0.1:$GATEWAY_PORT (8080 when unset);',
    'the mobility service itself (http://127.0.0.1:3002) works too.',
    '--key may come from PLATFORM_API_KEY instead (pnpm echoes a script\'s flags unless run as `pnpm -s`).',
    '--events filters event types (default: all); --port picks the local port (default: any free one).',
    '--exit-after n exits 0 after n verified deliveries. Ctrl-C deletes the endpoint and exits 0.',
    'With --json every line is a JSON object (first the endpoint with its secret, then one per delivery).',
    'The platform must allow http:// and loopback targets: `pnpm start` does in development (WEBHOOK_ALLOW_HTTP,',
    'WEBHOOK_ALLOW_PRIVATE); production never does.',
  ],
  flags: { key: 'string', url: 'string', events: 'string', port: 'string', 'exit-after': 'string' },
  async run({ flags, out }) {
    await listen(parseOptions(flags), out);
  },
};

function parseOptions(flags: Record<string, string | boolean | undefined>): Options {
  // From the environment too: `pnpm platform …` (without -s) echoes its command line, flags included.
  const key = stringFlag(flags, 'key') ?? process.env.PLATFORM_API_KEY;
  if (!key) throw new UsageError('--key is required (or set PLATFORM_API_KEY)');
  if (!key.startsWith('mk_')) throw new UsageError('--key must be a mobility key (mk_…) with the webhooks:manage scope');
  let apiUrl: URL;
  try {
    apiUrl = new URL(stringFlag(flags, 'url') ?? defaultApiUrl());
  } catch {
    throw new UsageError('--url must be an absolute URL such as http://127.0.0.1:8080');
  }
  if (apiUrl.protocol !== 'http:' && apiUrl.protocol !== 'https:') throw new UsageError('--url must be an http:// or https:// URL');
  const port = wholeNumber(flags, 'port', 0, 65535) ?? 0;
  const exitAfter = wholeNumber(flags, 'exit-after', 1, 1_000_000);
  return { key, apiUrl, events: commaList(flags.events), port, exitAfter };
}

/** An explicit GATEWAY_PORT, else the gateway `pnpm start` recorded in this checkout, else :8080. */
function defaultApiUrl(): string {
  if (process.env.GATEWAY_PORT) return `http://127.0.0.1:${process.env.GATEWAY_PORT}`;
  return readRunningState(workspaceRoot(__dirname))?.gatewayUrl ?? 'http://127.0.0.1:8080';
}

function wholeNumber(flags: Record<string, string | boolean | undefined>, name: string, min: number, max: number): number | undefined {
  const text = stringFlag(flags, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

async function listen(options: Options, out: Output): Promise<void> {
  let endpoint: Endpoint | undefined;
  let verified = 0;
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const event = describeEvent(body);
      const ok = req.method === 'POST' && size <= MAX_BODY_BYTES && endpoint !== undefined && verifyStandardWebhook(body, req.headers, endpoint.secret);
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { received: true } : { error: 'signature refused' }));
      const time = new Date().toISOString();
      out.line(
        { time, type: event.type, object_id: event.objectId, event_id: event.id, verified: ok },
        `${time} ${event.type} ${event.objectId} ${ok ? '✓ signature verified' : '✗ signature refused (answered 400)'}`,
      );
      if (ok && options.exitAfter !== undefined && ++verified >= options.exitAfter) finish();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new CommandError(error.code === 'EADDRINUSE' ? `port ${options.port} is in use: pick another --port or leave it out` : `cannot listen: ${error.message}`)),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });

  const stopOnSignal = () => finish();
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    endpoint = await register(options, receiverUrl);
    out.line(
      { endpoint_id: endpoint.id, url: endpoint.url, events: endpoint.events, secret: endpoint.secret },
      [
        `Ready. Receiving ${options.events ? options.events.join(', ') : 'every event'} at ${receiverUrl} (endpoint ${endpoint.id}).`,
        `Signing secret (shown only now): ${endpoint.secret}`,
        options.exitAfter ? `Exits after ${options.exitAfter} verified deliveries; Ctrl-C stops sooner.` : 'Press Ctrl-C to stop (the endpoint is then deleted).',
      ].join('\n'),
    );
    await finished;
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    if (endpoint) await remove(options, endpoint.id, out);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The event's type and object id for the line, from a body that may not even be JSON. */
function describeEvent(body: Buffer): { id: string; type: string; objectId: string } {
  try {
    const event = JSON.parse(body.toString('utf8')) as { id?: unknown; type?: unknown; data?: { id?: unknown } };
    const text = (value: unknown) => (typeof value === 'string' && value.length <= 200 ? value.replace(/[^\x21-\x7e]/g, '?') : '-');
    return { id: text(event.id), type: text(event.type), objectId: text(event.data?.id) };
  } catch {
    return { id: '-', type: '(not JSON)', objectId: '-' };
  }
}

async function api(options: Options, method: string, path: string, body?: object): Promise<{ status: number; json: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(new URL(path, options.apiUrl), {
      method,
      headers: { authorization: `Bearer ${options.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15000),
    });
  } catch (error) {
    throw new CommandError(`cannot reach ${options.apiUrl.origin} (${(error as Error).cause ?? (error as Error).message}): is the platform running (pnpm start)? Pass --url otherwise`);
  }
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // not JSON: only the status speaks
  }
  return { status: response.status, json };
}

async function register(options: Options, receiverUrl: string): Promise<Endpoint> {
  const { status, json } = await api(options, 'POST', '/api/v1/webhooks', {
    url: receiverUrl,
    ...(options.events ? { events: options.events } : {}),
    description: 'pnpm platform webhooks listen',
  });
  if (status !== 201) {
    const details = Array.isArray(json.details) ? ` (${(json.details as { path: string; message: string }[]).map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
 const unsafeTarget = ['https_required', 'unsafe_target'].includes(String(json.code)) || /https|private|loopback/i.test(JSON.stringify(json.details ?? ''));
    const hint = unsafeTarget
      ? '\nThe platform refuses http:// or loopback receivers: start it with WEBHOOK_ALLOW_HTTP=true WEBHOOK_ALLOW_PRIVATE=true (pnpm start does in development).'
      : '';
    throw new CommandError(`the platform refused to register the receiver: ${status} ${String(json.error ?? '')}${details}${hint}`);
  }
  return json as unknown as Endpoint;
}

async function remove(options: Options, id: string, out: Output): Promise<void> {
  try {
    const { status } = await api(options, 'DELETE', `/api/v1/webhooks/${id}`);
    if (status === 204 || status === 404) out.note(`Deleted endpoint ${id}.`);
    else out.note(`Could not delete endpoint ${id} (${status}): delete it with DELETE /api/v1/webhooks/${id}.`);
  } catch (error) {
    out.note(`Could not delete endpoint ${id}: ${(error as Error).message}`);
  }
}
