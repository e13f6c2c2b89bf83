import type { IncomingMessage, ServerResponse } from 'node:http';
import { signAdminToken } from '@platform/service-kit';
import { listen, sendJson, startFakeServer, waitFor, type RunningServer } from '@platform/test-kit';
import { startGateway, type RunningGateway } from './helpers';
import { open, send } from './raw-http';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const SECRET = 'gateway-uploads-test-secret-0123456789ab';
const MiB = 1024 * 1024;
const token = (account: string) => signAdminToken({ sub: account, org: `org_${account}`, role: 'owner' }, SECRET, { ttlSeconds: 900 });

/** A service that reads each upload as it arrives and answers held ones (`x-hold`) only when the test releases them. */
interface HoldingService extends RunningServer {
  received: Map<string, number>;
  held: ServerResponse[];
  completed: Array<{ id: string; body: Buffer; headers: IncomingMessage['headers'] }>;
  releaseAll(): void;
}

async function holdingService(): Promise<HoldingService> {
  const received = new Map<string, number>();
  const held: ServerResponse[] = [];
  const completed: HoldingService['completed'] = [];
  const running = await listen((req, res) => {
    const id = String(req.headers['x-upload-id'] ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received.set(id, (received.get(id) ?? 0) + chunk.length);
    });
    req.once('end', () => {
      completed.push({ id, body: Buffer.concat(chunks), headers: req.headers });
      if (req.headers['x-hold']) held.push(res);
      else sendJson(res, 200, { id, bytes: received.get(id) ?? 0 });
    });
  });
  return { ...running, received, held, completed, releaseAll: () => held.splice(0).forEach((res) => sendJson(res, 200, { released: true })) };
}

/** Sends a whole upload and resolves to the gateway's answer. */
function upload(gateway: RunningGateway, account: string, id: string, bytes: number, hold = false) {
  return send(gateway.url, {
    method: 'POST',
    path: '/dashboard/api/certificate/certificates/batch',
    headers: { authorization: `Bearer ${token(account)}`, 'content-type': 'text/csv', 'x-upload-id': id, ...(hold ? { 'x-hold': '1' } : {}) },
    body: Buffer.alloc(bytes, 0x61),
  });
}

let certificate: Fake;
let mobility: Fake;

beforeAll(async () => {
  certificate = await startFakeServer((req, res) => sendJson(res, 200, { path: req.url, bytes: req.body.length }));
  mobility = await startFakeServer((req, res) => sendJson(res, 200, { path: req.url, bytes: req.body.length }));
});
afterAll(async () => {
  await Promise.all([certificate.close(), mobility.close()]);
});

describe('dashboard bodies: per-route caps', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ certificate: certificate.url, mobility: mobility.url }, { config: { JWT_SECRET: SECRET } });
  });
  afterAll(() => gateway.close());

  it.each([
    ['mobility JSON over 100 kB', 'POST', '/dashboard/api/mobility/drivers', 101 * 1024, 'mobility'],
    ['certificate JSON over 100 kB', 'POST', '/dashboard/api/certificate/certificates', 101 * 1024, 'certificate'],
    ['a template over 3 MiB', 'POST', '/dashboard/api/certificate/templates', 3 * MiB + 1, 'certificate'],
    ["a template draft's preview over 3 MiB", 'POST', '/dashboard/api/certificate/templates/preview', 3 * MiB + 1, 'certificate'],
    ['a CSV batch over 5 MiB', 'POST', '/dashboard/api/certificate/certificates/batch', 5 * MiB + 1, 'certificate'],
  ] as const)('%s (by Content-Length): 413 JSON, the service never sees it', async (_label, method, path, bytes, service) => {
    const fake = service === 'certificate' ? certificate : mobility;
    const before = fake.requests.length;
    const answer = await send(gateway.url, { method, path, headers: { authorization: `Bearer ${token('acc_cap')}`, 'content-type': 'application/json' }, body: Buffer.alloc(bytes, 0x20) });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'payload_too_large' });
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    ['a new template', 'POST', '/dashboard/api/certificate/templates'],
    ["a new template's preview", 'POST', '/dashboard/api/certificate/templates/preview'],
    ['an update', 'PATCH', '/dashboard/api/certificate/templates/tpl_1'],
    ["an update's preview", 'POST', '/dashboard/api/certificate/templates/tpl_1/preview'],
  ] as const)('%s with a 1 MiB image (1.4 MB of JSON) reaches the service whole', async (_label, method, path) => {
    const body = Buffer.from(JSON.stringify({ name: 'x', logo: { data: 'A'.repeat(1_400_000) } }));
    const answer = await send(gateway.url, { method, path, headers: { authorization: `Bearer ${token('acc_template')}`, 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(200);
    expect(certificate.requests.at(-1)!.body.length).toBe(body.length);
  });

  it('a chunked body (no Content-Length) over the route cap: 413 JSON, and the service never gets a complete request', async () => {
    const before = mobility.requests.length;
    const req = open(gateway.url, { method: 'POST', path: '/dashboard/api/mobility/drivers', headers: { authorization: `Bearer ${token('acc_chunked')}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    const answered = new Promise<{ status: number; text: string }>((resolve) => {
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
    });
    req.on('error', () => undefined); // the gateway closes the connection after its 413
    for (let i = 0; i < 20; i++) req.write(Buffer.alloc(8 * 1024, 0x20));
    req.end();
    const answer = await answered;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'payload_too_large' });
    expect(mobility.requests.length).toBe(before);
  });

  it('a normal dashboard request still works: JSON to mobility and a chunked CSV to certificate arrive byte for byte', async () => {
    const json = Buffer.from(JSON.stringify({ name: 'Ada', phone: '+15550000000', note: 'é ✓' }));
    const driver = await send(gateway.url, { method: 'POST', path: '/dashboard/api/mobility/drivers', headers: { authorization: `Bearer ${token('acc_ok')}`, 'content-type': 'application/json' }, body: json });
    expect(driver.status).toBe(200);
    expect(mobility.requests.at(-1)!.url).toBe('/admin/v1/drivers');
    expect(mobility.requests.at(-1)!.body.equals(json)).toBe(true);

    const csv = Buffer.concat([Buffer.from('recipient_name,program_title,issue_date\n'), Buffer.alloc(300 * 1024, 0x0a)]);
    const req = open(gateway.url, { method: 'POST', path: '/dashboard/api/certificate/certificates/batch', headers: { authorization: `Bearer ${token('acc_ok')}`, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' } });
    const status = new Promise<number>((resolve) => req.once('response', (res) => (res.resume(), resolve(res.statusCode ?? 0))));
    for (let offset = 0; offset < csv.length; offset += 64 * 1024) req.write(csv.subarray(offset, offset + 64 * 1024));
    req.end();
    expect(await status).toBe(200);
    expect(certificate.requests.at(-1)!.body.equals(csv)).toBe(true);
  });
});

describe('dashboard bodies: streamed, and capped in flight per account and per process', () => {
  let service: HoldingService;
  let gateway: RunningGateway;
  beforeAll(async () => {
    service = await holdingService();
    gateway = await startGateway(
      { certificate: service.url, mobility: service.url },
      { config: { JWT_SECRET: SECRET, DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT: 2 * MiB, DASHBOARD_UPLOAD_BYTES_PER_PROCESS: 4 * MiB } },
    );
  });
  afterEach(() => service.releaseAll());
  afterAll(async () => {
    await gateway.close();
    await service.close();
  });

  it('forwards the first bytes before the client has sent the rest (no full buffering at the gateway)', async () => {
    const req = open(gateway.url, {
      method: 'POST',
      path: '/dashboard/api/certificate/certificates/batch',
      headers: { authorization: `Bearer ${token('acc_stream')}`, 'content-type': 'text/csv', 'content-length': String(2 * 64 * 1024), 'x-upload-id': 'stream' },
    });
    const status = new Promise<number>((resolve) => req.once('response', (res) => (res.resume(), resolve(res.statusCode ?? 0))));
    req.write(Buffer.alloc(64 * 1024, 0x61));
    await waitFor(() => (service.received.get('stream') ?? 0) > 0, 'the first half at the service');
    req.end(Buffer.alloc(64 * 1024, 0x62));
    expect(await status).toBe(200);
    const delivered = service.completed.find((c) => c.id === 'stream')!;
    expect(delivered.body.equals(Buffer.concat([Buffer.alloc(64 * 1024, 0x61), Buffer.alloc(64 * 1024, 0x62)]))).toBe(true);
  });

  it('refuses the third concurrent 1 MiB upload of one account (429 JSON, Retry-After) while another account is answered', async () => {
    const first = upload(gateway, 'acc_a', 'a1', MiB, true);
    const second = upload(gateway, 'acc_a', 'a2', MiB, true);
    await waitFor(() => service.held.length === 2, 'two uploads held at the service');
    const third = await upload(gateway, 'acc_a', 'a3', MiB);
    expect(third.status).toBe(429);
    expect(third.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(third.headers['retry-after']).toBe('1');
    expect(JSON.parse(third.text)).toMatchObject({ code: 'too_many_uploads' });
    expect(service.received.has('a3')).toBe(false);

    const other = await upload(gateway, 'acc_b', 'b1', MiB);
    expect(other.status).toBe(200);
    expect(JSON.parse(other.text)).toEqual({ id: 'b1', bytes: MiB });

    service.releaseAll();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    // Their bytes were given back: the account may upload again.
    expect((await upload(gateway, 'acc_a', 'a4', MiB)).status).toBe(200);
  });

  it('refuses an upload past the process cap with 503 JSON and Retry-After, while small requests are still answered', async () => {
    const held = [upload(gateway, 'acc_p1', 'p1', 2 * MiB, true), upload(gateway, 'acc_p2', 'p2', 2 * MiB, true)];
    await waitFor(() => service.held.length === 2, 'two uploads held at the service');
    const refused = await upload(gateway, 'acc_p3', 'p3', MiB);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'uploads_busy' });
    expect(service.received.has('p3')).toBe(false);
    const list = await send(gateway.url, { path: '/dashboard/api/certificate/certificates', headers: { authorization: `Bearer ${token('acc_p3')}`, 'x-upload-id': 'list' } });
    expect(list.status).toBe(200);
    service.releaseAll();
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
  });
});
