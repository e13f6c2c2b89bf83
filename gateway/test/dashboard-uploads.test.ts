import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, sendJson, startFakeServer, waitFor, type RunningServer } from '@platform/test-kit';
import { answerSessionCheck, dashboardToken, proxiedRequests, startGateway, withSessionCheck, type RunningGateway } from './helpers';
import { open, send } from './raw-http';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const SECRET = 'gateway-uploads-test-secret-0123456789ab';
const MiB = 1024 * 1024;
/** An account's access token, naming a live sign-in (the fake certificate services answer the session check). */
const token = (account: string) => dashboardToken({ sub: account, org: `org_${account}`, role: 'owner' }, SECRET, { ttlSeconds: 900 });

/**
 * A service that reads each upload as it arrives and answers held ones (`x-hold`) only when the test releases them; as
 * the certificate service, it answers the gateway's session check too (not recorded).
 */
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
    if (answerSessionCheck(req, res)) return;
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
  certificate = await startFakeServer(withSessionCheck((req, res) => sendJson(res, 200, { path: req.url, bytes: req.body.length })));
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
    const before = proxiedRequests(fake).length;
    const answer = await send(gateway.url, { method, path, headers: { authorization: `Bearer ${token('acc_cap')}`, 'content-type': 'application/json' }, body: Buffer.alloc(bytes, 0x20) });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'payload_too_large' });
    expect(proxiedRequests(fake).length).toBe(before);
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
  /** Accounts may hold 3 of the process's 4 MiB: the shared total is reached before any account's cap. */
  let fairGateway: RunningGateway;
  /** Bodies idle for 300 ms are cut off. */
  let idleGateway: RunningGateway;
  beforeAll(async () => {
    service = await holdingService();
    const upstreams = { certificate: service.url, mobility: service.url };
    gateway = await startGateway(upstreams, { config: { JWT_SECRET: SECRET, DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT: 2 * MiB, DASHBOARD_UPLOAD_BYTES_PER_PROCESS: 4 * MiB } });
    fairGateway = await startGateway(upstreams, { config: { JWT_SECRET: SECRET, DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT: 3 * MiB, DASHBOARD_UPLOAD_BYTES_PER_PROCESS: 4 * MiB } });
    idleGateway = await startGateway(upstreams, { config: { JWT_SECRET: SECRET, DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT: 2 * MiB, DASHBOARD_BODY_IDLE_MS: 300 } });
  });
  afterEach(() => service.releaseAll());
  afterAll(async () => {
    await Promise.all([gateway.close(), fairGateway.close(), idleGateway.close()]);
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

  it('charges bytes as they arrive: bodies that declare 1 MiB and send 1 KiB hold 1 KiB, so a bystander still uploads', async () => {
    // 4 accounts × 2 uploads each declaring 1 MiB would reserve the whole process (4 MiB) and both accounts' caps.
    const stalled = ['s1', 's2', 's3', 's4'].flatMap((account) =>
      [1, 2].map((n) => {
        const req = open(gateway.url, {
          method: 'POST',
          path: '/dashboard/api/certificate/certificates/batch',
          headers: { authorization: `Bearer ${token(`acc_${account}`)}`, 'content-type': 'text/csv', 'content-length': String(MiB), 'x-upload-id': `${account}-${n}` },
        });
        req.on('error', () => undefined);
        req.write(Buffer.alloc(1024, 0x61));
        return req;
      }),
    );
    try {
      await waitFor(() => stalled.every((_req, i) => (service.received.get(`s${1 + Math.floor(i / 2)}-${1 + (i % 2)}`) ?? 0) >= 1024), 'the first KiB of each at the service');
      const bystander = await upload(gateway, 'acc_bystander', 'bystander', MiB);
      expect(bystander.status).toBe(200);
      expect(JSON.parse(bystander.text)).toEqual({ id: 'bystander', bytes: MiB });
      // And a stalling account's own second upload too: it holds 2 KiB of its 2 MiB.
      expect((await upload(gateway, 'acc_s1', 's1-3', MiB)).status).toBe(200);
    } finally {
      stalled.forEach((req) => req.destroy());
    }
  });

  it('shares the process total fairly: while it is full, an account at its share gets 503 JSON with Retry-After, a newcomer is admitted', async () => {
    const held = [upload(fairGateway, 'acc_p1', 'p1', 2 * MiB, true), upload(fairGateway, 'acc_p2', 'p2', 2 * MiB, true)];
    await waitFor(() => service.held.length === 2, 'two uploads held at the service');
    // acc_p1 is under its own cap (3 MiB) but holds its share of the full 4 MiB (4 / 2 accounts).
    const refused = await upload(fairGateway, 'acc_p1', 'p1-more', MiB);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'uploads_busy' });
    expect(service.received.has('p1-more')).toBe(false);
    // A third account holds nothing, under its share (4 / 3 MiB): its first upload goes through.
    const newcomer = await upload(fairGateway, 'acc_p3', 'p3', MiB);
    expect(newcomer.status).toBe(200);
    expect(JSON.parse(newcomer.text)).toEqual({ id: 'p3', bytes: MiB });
    const list = await send(fairGateway.url, { path: '/dashboard/api/certificate/certificates', headers: { authorization: `Bearer ${token('acc_p3')}`, 'x-upload-id': 'list' } });
    expect(list.status).toBe(200);
    service.releaseAll();
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
  });

  it('a chunked upload past its account cap is stopped mid-body with 429 JSON; the service never sees it complete', async () => {
    const first = upload(gateway, 'acc_c', 'c1', 1.5 * MiB, true);
    await waitFor(() => service.held.length === 1, 'one upload held at the service');
    const req = open(gateway.url, {
      method: 'POST',
      path: '/dashboard/api/certificate/certificates/batch',
      headers: { authorization: `Bearer ${token('acc_c')}`, 'content-type': 'text/csv', 'transfer-encoding': 'chunked', 'x-upload-id': 'c2' },
    });
    req.on('error', () => undefined);
    const answered = new Promise<{ status: number; retryAfter: string | undefined; text: string }>((resolve) =>
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], text: Buffer.concat(chunks).toString() }));
      }),
    );
    for (let i = 0; i < 16; i++) req.write(Buffer.alloc(64 * 1024, 0x62));
    req.end();
    const answer = await answered;
    expect(answer.status).toBe(429);
    expect(answer.retryAfter).toBe('1');
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'too_many_uploads' });
    expect(service.completed.some((c) => c.id === 'c2')).toBe(false);
    service.releaseAll();
    expect((await first).status).toBe(200);
  });

  it('an upload the service refuses before reading it (a 429 of its own) ends at once: the client gets the answer with Connection: close and the service socket is freed', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const refusing = await listen((req, res) => {
      if (answerSessionCheck(req, res)) return;
      sockets.add(req.socket);
      req.socket.once('close', () => sockets.delete(req.socket));
      sendJson(res, 429, { error: 'Too many batch issues in flight', code: 'too_many_in_flight' });
    });
    const slowBodies = await startGateway({ certificate: refusing.url, mobility: refusing.url }, { config: { JWT_SECRET: SECRET, DASHBOARD_BODY_IDLE_MS: 30000 } });
    const req = open(slowBodies.url, {
      method: 'POST',
      path: '/dashboard/api/certificate/certificates/batch',
      headers: { authorization: `Bearer ${token('acc_refused')}`, 'content-type': 'text/csv', 'content-length': String(MiB) },
    });
    req.on('error', () => undefined);
    try {
      const answer = new Promise<{ status: number; connection: string | undefined }>((resolve) => req.once('response', (res) => (res.resume(), resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }))));
      req.write(Buffer.alloc(1024, 0x61));
      expect(await answer).toEqual({ status: 429, connection: 'close' });
      // Long before the 30 s idle cut-off, nothing of the request is left open at the service.
      await waitFor(() => sockets.size === 0, "the service's socket closed", { timeoutMs: 5000 });
    } finally {
      req.destroy();
      await slowBodies.close();
      await refusing.close();
    }
  });

  it('a body that stops sending is cut off with 408 JSON after the idle time, and its share is given back', async () => {
    const req = open(idleGateway.url, {
      method: 'POST',
      path: '/dashboard/api/certificate/certificates/batch',
      headers: { authorization: `Bearer ${token('acc_idle')}`, 'content-type': 'text/csv', 'content-length': String(2 * MiB), 'x-upload-id': 'idle' },
    });
    req.on('error', () => undefined);
    const answered = new Promise<{ status: number; text: string }>((resolve) =>
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      }),
    );
    req.write(Buffer.alloc(MiB, 0x61));
    const answer = await answered;
    req.destroy();
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'request_timeout' });
    expect(service.completed.some((c) => c.id === 'idle')).toBe(false);
    // Its megabyte was given back: the account may send its full cap again.
    expect((await upload(idleGateway, 'acc_idle', 'idle-2', 2 * MiB)).status).toBe(200);
  });
});
