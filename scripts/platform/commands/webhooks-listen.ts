/**
 * `pnpm platform webhooks listen` (like `stripe listen`): a local receiver on 127.0.0.1, registered as a webhook endpoint
 * through the public API with the partner's own key, that checks every delivery's Standard Webhooks signature with
 * `@platform/webhook-signature`, prints one line per delivery and answers 2xx to verified ones (400 to the rest, so the
 * platform retries them). Ctrl-C (or --exit-after n verified deliveries) deletes the endpoint and exits 0.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyStandardWebhook } from '@platform/webhook-signature';
import { CommandError, UsageError, commaList, stringFlag, type CommandSpec, type Output } from '../cli';
import { API_URL_DETAILS, absoluteUrl, callApi, describeRefusal, publicApiFrom, type PublicApi } from '../public-api';
import { forwardDelivery, forwardedLine, type Forwarded } from './webhooks-forward';

const MAX_BODY_BYTES = 1024 * 1024;

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

interface Options extends PublicApi {
  events?: string[];
  forwardTo?: URL;
  port: number;
  exitAfter?: number;
}

export const webhooksListen: CommandSpec = {
  name: 'webhooks listen',
  summary: 'receive your webhooks locally: register a receiver on 127.0.0.1, verify and print each delivery',
  synopsis: '--key <mk_…> [--url http://127.0.0.1:8080] [--events a,b] [--forward-to <url>] [--port <n>] [--exit-after <n>]',
  details: [
    'Registers http://127.0.0.1:<port>/webhooks as an endpoint of the key\'s organization (POST /api/v1/webhooks; the key',
    'needs webhooks:manage), prints its signing secret once, then one line per delivery:',
    '  <time> <event type> <object id> ✓ signature verified      (answered 200)',
    '  <time> <event type> <object id> ✗ signature refused       (answered 400: the platform retries it)',
    '--forward-to <url> also sends each verified delivery on to your app (same method, body bytes and webhook-id,',
    'webhook-timestamp, webhook-signature headers: verify it with the signing secret above) and shows its answer:',
    '  <time> <event type> <object id> ✓ signature verified → [<app status>] <ms> ms',
    ...API_URL_DETAILS,
    '--events filters event types (default: all); --port picks the local port (default: any free one).',
    '--exit-after n exits 0 after n verified deliveries. Ctrl-C deletes the endpoint and exits 0.',
    'With --json every line is a JSON object (first the endpoint with its secret, then one per delivery).',
    'The platform must allow http:// and loopback targets: `pnpm start` does in development (WEBHOOK_ALLOW_HTTP,',
    'WEBHOOK_ALLOW_PRIVATE); production never does.',
  ],
  flags: { key: 'string', url: 'string', events: 'string', 'forward-to': 'string', port: 'string', 'exit-after': 'string' },
  async run({ flags, out }) {
    await listen(parseOptions(flags), out);
  },
};

function parseOptions(flags: Record<string, string | boolean | undefined>): Options {
  const api = publicApiFrom(flags, 'a mobility key (mk_…) with the webhooks:manage scope');
  const forwardTo = stringFlag(flags, 'forward-to');
  const port = wholeNumber(flags, 'port', 0, 65535) ?? 0;
  const exitAfter = wholeNumber(flags, 'exit-after', 1, 1_000_000);
  return { ...api, events: commaList(flags.events), port, exitAfter, ...(forwardTo ? { forwardTo: absoluteUrl(forwardTo, 'forward-to', 'http://localhost:3000/webhooks') } : {}) };
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
  let forwarding = Promise.resolve();
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
      const value = { time, type: event.type, object_id: event.objectId, event_id: event.id, verified: ok };
      const human = `${time} ${event.type} ${event.objectId} ${ok ? '✓ signature verified' : '✗ signature refused (answered 400)'}`;
      if (!ok) return out.line(value, human);
      // One delivery at a time, in the order received: the app sees them (and the lines show them) as the platform sent them.
      const forwardTo = options.forwardTo;
      forwarding = forwarding.then(async () => {
        const forwarded: Forwarded | undefined = forwardTo ? await forwardDelivery(forwardTo, req.method!, req.headers, body) : undefined;
        if (forwarded) out.line({ ...value, forwarded }, `${human} ${forwardedLine(forwarded)}`);
        else out.line(value, human);
        if (options.exitAfter !== undefined && ++verified >= options.exitAfter) finish();
      });
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
        ...(options.forwardTo ? [`Forwarding verified deliveries to ${options.forwardTo.href}.`] : []),
        `Signing secret (shown only now): ${endpoint.secret}`,
        options.exitAfter ? `Exits after ${options.exitAfter} verified deliveries; Ctrl-C stops sooner.` : 'Press Ctrl-C to stop (the endpoint is then deleted).',
      ].join('\n'),
    );
    await finished;
    await forwarding;
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

async function register(options: Options, receiverUrl: string): Promise<Endpoint> {
  const answer = await callApi(options, 'POST', '/api/v1/webhooks', {
    url: receiverUrl,
    ...(options.events ? { events: options.events } : {}),
    description: 'pnpm platform webhooks listen',
  });
  const { status, json } = answer;
  if (status !== 201) {
    const unsafeTarget = ['https_required', 'unsafe_target'].includes(String(json.code)) || /https|private|loopback/i.test(JSON.stringify(json.details ?? ''));
    const hint = unsafeTarget
      ? '\nThe platform refuses http:// or loopback receivers: start it with WEBHOOK_ALLOW_HTTP=true WEBHOOK_ALLOW_PRIVATE=true (pnpm start does in development).'
      : '';
    throw new CommandError(`the platform refused to register the receiver: ${describeRefusal(answer)}${hint}`);
  }
  return json as unknown as Endpoint;
}

async function remove(options: Options, id: string, out: Output): Promise<void> {
  try {
    const { status } = await callApi(options, 'DELETE', `/api/v1/webhooks/${id}`);
    if (status === 204 || status === 404) out.note(`Deleted endpoint ${id}.`);
    else out.note(`Could not delete endpoint ${id} (${status}): delete it with DELETE /api/v1/webhooks/${id}.`);
  } catch (error) {
    out.note(`Could not delete endpoint ${id}: ${(error as Error).message}`);
  }
}
