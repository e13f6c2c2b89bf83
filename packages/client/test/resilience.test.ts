import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { createPartnerClient, ERROR_CODES, WEBHOOK_EVENT_TYPES, type ErrorCode, type WebhookPayload } from '@platform/client';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

let api: Fake;
beforeAll(async () => {
  api = await startFakeServer((_req, res) => sendJson(res, 200, {}));
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

const RIDE_BODY = { pickup: { lat: 6.45, lng: 3.4 }, dropoff: { lat: 6.5, lng: 3.37 }, tier: 'economy' as const, passenger: { name: 'Ada', phone: '+2348000000000' } };
const PROBLEM = (status: number, code: string) => ({ type: `https://docs.partner-platform.example/errors/${code}`, title: 'x', status, detail: code, error: code, code });

/** Answers the given statuses in turn (with their headers), then 200. */
function replies(...answers: Array<[number, Record<string, string>?]>) {
  let index = 0;
  api.setReply((_req, res) => {
    const answer = answers[index++];
    if (!answer) return sendJson(res, 200, { id: 'ride_1', status: 'pending' });
    res.writeHead(answer[0], { 'Content-Type': 'application/problem+json', ...answer[1] });
    res.end(JSON.stringify(PROBLEM(answer[0], answer[0] === 429 ? 'rate_limited' : 'upstream_unavailable')));
  });
}

const client = (options: Partial<Parameters<typeof createPartnerClient>[0]> = {}) =>
  createPartnerClient({ baseUrl: api.url, apiKey: 'mk_test', retry: { baseDelayMs: 5, maxDelayMs: 2000 }, ...options });

describe('automatic Idempotency-Key', () => {
  it('gives POST /api/v1/rides a fresh key and sends the same key again when the try is retried', async () => {
    replies([503, { 'Retry-After': '0' }]);
    const { response } = await client().POST('/api/v1/rides', { body: RIDE_BODY });
    expect(response.status).toBe(200);
    const [first, second] = api.requests;
    expect(api.requests).toHaveLength(2);
    expect(first!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(JSON.parse(second!.body.toString())).toEqual(RIDE_BODY);
  });

  it('keeps a key the caller gave, and gives none to other POSTs', async () => {
    replies();
    await client().POST('/api/v1/rides', { body: RIDE_BODY, params: { header: { 'Idempotency-Key': 'order-42' } } });
    await client().POST('/api/v1/estimates', { body: { pickup: RIDE_BODY.pickup, dropoff: RIDE_BODY.dropoff } });
    expect(api.requests[0]!.headers['idempotency-key']).toBe('order-42');
    expect(api.requests[1]!.headers['idempotency-key']).toBeUndefined();
  });
});

describe('retries', () => {
  it('retries a 429 after its Retry-After and returns the answer that follows', async () => {
    replies([429, { 'Retry-After': '1' }]);
    const { data, response } = await client().GET('/api/v1/rides/{id}', { params: { path: { id: 'ride_1' } } });
    expect(response.status).toBe(200);
    expect(data).toEqual({ id: 'ride_1', status: 'pending' });
    expect(api.requests).toHaveLength(2);
  });

  it('retries a GET on 502 but not a POST without an Idempotency-Key', async () => {
    replies([502], [502]);
    expect((await client().GET('/api/v1/rides/{id}', { params: { path: { id: 'ride_1' } } })).response.status).toBe(200);
    expect(api.requests).toHaveLength(3);
    api.requests.length = 0;
    replies([502]);
    const estimate = await client().POST('/api/v1/estimates', { body: { pickup: RIDE_BODY.pickup, dropoff: RIDE_BODY.dropoff } });
    expect(estimate.response.status).toBe(502);
    expect(api.requests).toHaveLength(1);
  });

  it('gives up after the configured tries and hands back the last typed error', async () => {
    replies([503], [503], [503], [503]);
    const { error, response } = await client({ retry: { retries: 1, baseDelayMs: 5 } }).GET('/api/v1/rides/{id}', { params: { path: { id: 'ride_1' } } });
    expect(response.status).toBe(503);
    expect(api.requests).toHaveLength(2);
    const code: ErrorCode | undefined = error?.code;
    expect(code).toBe('upstream_unavailable');
  });

  it('does not wait out a Retry-After longer than the cap', async () => {
    replies([429, { 'Retry-After': '3600' }]);
    const { response } = await client().GET('/api/v1/rides/{id}', { params: { path: { id: 'ride_1' } } });
    expect(response.status).toBe(429);
    expect(api.requests).toHaveLength(1);
  });

  it('is off with retry: false', async () => {
    replies([503]);
    expect((await client({ retry: false }).GET('/api/v1/rides/{id}', { params: { path: { id: 'ride_1' } } })).response.status).toBe(503);
    expect(api.requests).toHaveLength(1);
  });
});

describe('timeout', () => {
  it('abandons a try that gets no answer within timeoutMs', async () => {
    api.setReply(() => undefined); // never answers
    const pending = client({ timeoutMs: 200, retry: false }).GET('/api/v1/rides/{id}', { params: { path: { id: 'ride_1' } } });
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('documented names', () => {
  it('lists every documented error code and webhook event type', () => {
    expect(ERROR_CODES).toEqual(expect.arrayContaining(['not_found', 'missing_api_key', 'invalid_ride_status', 'upstream_timeout', 'method_not_allowed']));
    expect(WEBHOOK_EVENT_TYPES).toContain('delivery.delivered');
  });

  it('narrows a webhook payload by its type', () => {
    const payload = JSON.parse(JSON.stringify({ id: 'evt_1', type: 'delivery.delivered', created_at: '2026-11-26T10:00:00Z', data: { id: 'dlv_1', weight_tier: 'small' } })) as WebhookPayload;
    const described = (event: WebhookPayload): string => {
      if (event.type === 'delivery.delivered') return `delivery ${event.data.id} (${event.data.weight_tier})`; // data is a Delivery here
      if (event.type === 'ride.completed') return `ride ${event.data.id} (${event.data.tier})`; // and a Ride here
      return event.type;
    };
    expect(described(payload)).toBe('delivery dlv_1 (small)');
  });
});

describe('the installable package', () => {
  it('points its exports at compiled JavaScript and type declarations, and ships a README', () => {
    const root = path.join(__dirname, '..');
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: { '.': { types: string; default: string } }; files: string[] };
    expect(existsSync(path.join(root, manifest.exports['.'].default))).toBe(true);
    expect(readFileSync(path.join(root, manifest.exports['.'].types), 'utf8')).toContain('createPartnerClient');
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md']));
    expect(existsSync(path.join(root, 'README.md'))).toBe(true);
    expect(require.resolve('@platform/client')).toBe(path.join(root, 'dist', 'index.js'));
  });
});
