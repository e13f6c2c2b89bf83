import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import { parse } from 'yaml';
import { DEV_JWT_SECRET } from '@platform/service-kit/config';
import { signAdminToken, signDriverToken, signJwt } from '@platform/service-kit/admin-auth';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { dashboardToken, proxiedRequests, startGateway, testRedis, withSessionCheck, type RunningGateway } from './helpers';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

const SECRET = 'gateway-dashboard-test-secret-0123456789';
const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/dashboard/assets/app-3f9a1c.js"></script></head><body><div id="root"></div></body></html>';
const APP_JS = 'console.log("dashboard");';

let certificate: Fake;
let mobility: Fake;
let gateway: RunningGateway;
let workDir: string;
let dashboardDir: string;

beforeAll(async () => {
  certificate = await startFakeServer(withSessionCheck((req, res) => sendJson(res, 200, { upstream: 'certificate', path: req.url })));
  mobility = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
  workDir = mkdtempSync(path.join(tmpdir(), 'gateway-dashboard-'));
  dashboardDir = path.join(workDir, 'dist');
  mkdirSync(path.join(dashboardDir, 'assets'), { recursive: true });
  writeFileSync(path.join(dashboardDir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dashboardDir, 'assets', 'app-3f9a1c.js'), APP_JS);
  writeFileSync(path.join(dashboardDir, 'assets', 'app-3f9a1c.css'), 'body{margin:0}');
  writeFileSync(path.join(dashboardDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(workDir, 'secret.txt'), 'TOP-SECRET');
  gateway = await startGateway({ certificate: certificate.url, mobility: mobility.url }, { config: { JWT_SECRET: SECRET, DASHBOARD_DIR: dashboardDir } });
});
afterAll(async () => {
  await Promise.all([gateway.close(), certificate.close(), mobility.close()]);
  rmSync(workDir, { recursive: true, force: true });
});

/** Every request either service received, session checks included. */
const upstreamCalls = () => certificate.requests.length + mobility.requests.length;
const OWNER = { sub: 'acc_aaaaaaaaaaaaaaaaaaaa', org: 'org_bbbbbbbbbbbbbbbbbbbb', org_name: 'Academy', role: 'owner' } as const;
/** The owner's access token, naming a live sign-in (the fake certificate service answers the session check). */
const ownerToken = (secret = SECRET) => dashboardToken(OWNER, secret, { ttlSeconds: 900 });

/** A service's description: its hand-written `openapi.yaml` while it has one, else the one built from its route table. */
function serviceDescription(service: 'certificate' | 'mobility'): { paths: Record<string, Record<string, unknown>> } {
  const serviceDir = path.join(__dirname, '..', '..', 'services', service);
  const file = path.join(serviceDir, 'openapi.yaml');
  if (existsSync(file)) return parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const built = require(path.join(serviceDir, 'src', 'openapi')) as Record<string, () => { paths: Record<string, Record<string, unknown>> }>;
  return built[`${service}OpenApi`]!();
}

/** Every `/admin/v1` operation both services describe, with path parameters filled in. */
function adminOperations(): Array<[string, string, 'certificate' | 'mobility']> {
  const operations: Array<[string, string, 'certificate' | 'mobility']> = [];
  for (const service of ['certificate', 'mobility'] as const) {
    const document = serviceDescription(service);
    for (const [template, item] of Object.entries(document.paths)) {
      if (!template.startsWith('/admin/v1/')) continue;
      for (const method of Object.keys(item).filter((key) => ['get', 'post', 'patch', 'put', 'delete'].includes(key))) {
        operations.push([method.toUpperCase(), template.replace(/\{[^}]+\}/g, 'x_1'), service]);
      }
    }
  }
  return operations;
}

const operations = adminOperations();

describe('dashboard admin prefixes', () => {
  it('covers every admin route family of both services', () => {
    const families = new Set(operations.map(([, p, service]) => `${service} ${p.split('/')[3]}`));
    expect([...families]).toEqual(expect.arrayContaining(['certificate api-keys', 'certificate certificates', 'certificate templates', 'certificate members', 'certificate invitations', 'certificate plans', 'certificate subscriptions', 'mobility api-keys', 'mobility drivers']));
  });

  it.each(operations)('%s %s (%s): refused without a token, with a driver token, a foreign, long-lived or sign-in-less one; proxied with a dashboard token', async (method, adminPath, service) => {
    const gatewayPath = adminPath.replace('/admin/v1/', `/dashboard/api/${service}/`);
    const before = upstreamCalls();
    const send = (authorization?: string) =>
      fetch(gateway.url + gatewayPath, {
        method,
        headers: { ...(authorization ? { Authorization: authorization } : {}), ...(method === 'GET' || method === 'DELETE' ? {} : { 'Content-Type': 'application/json' }) },
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
    const missing = await send();
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.json()).toMatchObject({ code: 'missing_token' });
    const refusedTokens = [
      signDriverToken('drv_1', SECRET),
      ownerToken(DEV_JWT_SECRET), // signed with another secret
      signAdminToken({ sub: 'acc_1', org: 'org_1', role: 'owner' }, SECRET, { ttlSeconds: 13 * 3600 }), // longer than the 12 h maximum
      signJwt({ sub: 'acc_1', org: 'org_1', role: 'owner', aud: 'admin', iss: 'partner-platform' }, SECRET), // no exp
      signAdminToken({ sub: 'acc_1', org: 'org_1', role: 'owner' }, SECRET, { issuer: 'someone-else' }),
      'not-a-jwt',
    ];
    for (const token of refusedTokens) {
      const res = await send(`Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'invalid_token' });
    }
    // Signed with our secret but naming no sign-in (`sid`): nothing could end it, so it is refused before any session check.
    const sidless = await send(`Bearer ${signAdminToken(OWNER, SECRET, { ttlSeconds: 900 })}`);
    expect(sidless.status).toBe(401);
    expect(sidless.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await sidless.json()).toMatchObject({ code: 'session_required' });
    expect(upstreamCalls()).toBe(before);

    const ok = await send(`Bearer ${ownerToken()}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ upstream: service, path: adminPath });
    const forwarded = (service === 'certificate' ? certificate : mobility).requests.at(-1)!;
    expect(forwarded.method).toBe(method);
    expect(forwarded.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('forwards a bodiless POST (Content-Length: 0, as a browser sends one) as an empty body, never chunked', async () => {
    const res = await fetch(`${gateway.url}/dashboard/api/mobility/event-pass-programs/evp_1/passes/evpass_1/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ownerToken()}`, 'Content-Length': '0' },
    });
    expect(res.status).toBe(200);
    const forwarded = mobility.requests.at(-1)!;
    expect(forwarded.headers['content-length']).toBe('0');
    expect(forwarded.headers['transfer-encoding']).toBeUndefined();
    expect(forwarded.body.length).toBe(0);
  });

  it('keeps the query string when rewriting', async () => {
    const res = await fetch(`${gateway.url}/dashboard/api/certificate/certificates?limit=5&status=valid`, { headers: { Authorization: `Bearer ${ownerToken()}` } });
    expect(await res.json()).toEqual({ upstream: 'certificate', path: '/admin/v1/certificates?limit=5&status=valid' });
  });

  it.each(['/admin/v1/api-keys', '/admin/v1/members', '/dashboard/api', '/dashboard/api/', '/dashboard/api/certificate', '/dashboard/api/other/x', '/accounts/v1/sessions'])(
    '%s is a JSON 404 even with a valid token, and no upstream is called',
    async (p) => {
      const before = upstreamCalls();
      const res = await fetch(gateway.url + p, { headers: { Authorization: `Bearer ${ownerToken()}` } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(upstreamCalls()).toBe(before);
    },
  );

  it.each(['/dashboard/api/certificate/../../accounts/v1/sessions', '/dashboard/api/auth/%2e%2e/%2e%2e/admin/v1/api-keys', '/dashboard/api/auth/..%2F..%2Fadmin/v1/api-keys', '/dashboard/api/auth/x/..\\..\\admin'])(
    'a dot segment cannot climb out of a rewritten prefix: %s is a 404 and no upstream is called',
    async (p) => {
      const before = upstreamCalls();
      const status = await rawGet(p, { Authorization: `Bearer ${ownerToken()}` });
      expect(status).toBe(404);
      expect(upstreamCalls()).toBe(before);
    },
  );
});

describe('dashboard body size', () => {
  const csv = (bytes: number) => Buffer.concat([Buffer.from('recipient_name,program_title,issue_date\n'), Buffer.alloc(bytes, 0x0a)]);

  it('forwards a CSV batch over MAX_BODY_BYTES (up to DASHBOARD_MAX_BODY_BYTES, 5 MiB) with a dashboard token, byte for byte', async () => {
    const body = csv(2 * 1024 * 1024);
    const answer = await fetch(`${gateway.url}/dashboard/api/certificate/certificates/batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ownerToken()}`, 'Content-Type': 'text/csv' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ upstream: 'certificate', path: '/admin/v1/certificates/batch' });
    expect(certificate.requests.at(-1)!.body.equals(body)).toBe(true);
  });

  it('refuses the large body without a token (401, nothing forwarded), past 5 MiB (413), and on the partner API past 100 kB (413)', async () => {
    const proxied = () => proxiedRequests(certificate).length + mobility.requests.length;
    const before = proxied();
    const unsigned = await fetch(`${gateway.url}/dashboard/api/certificate/certificates/batch`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: csv(2 * 1024 * 1024) });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ code: 'missing_token' });
    const tooLarge = await fetch(`${gateway.url}/dashboard/api/certificate/certificates/batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ownerToken()}`, 'Content-Type': 'text/csv' },
      body: csv(5 * 1024 * 1024),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await tooLarge.json()).toMatchObject({ code: 'payload_too_large' });
    const partner = await fetch(`${gateway.url}/api/v1/rides`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(200 * 1024, 0x20) });
    expect(partner.status).toBe(413);
    expect(proxied()).toBe(before);
  });
});

describe('dashboard auth prefix', () => {
  it('sends /dashboard/api/auth/… to the certificate service as /accounts/v1/… without a token, cookies and Origin passed through', async () => {
    const res = await fetch(`${gateway.url}/dashboard/api/auth/sessions/refresh`, { method: 'POST', headers: { Cookie: 'pp_refresh=abc', Origin: 'http://127.0.0.1:8080' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ upstream: 'certificate', path: '/accounts/v1/sessions/refresh' });
    const forwarded = certificate.requests.at(-1)!;
    expect(forwarded.headers.cookie).toBe('pp_refresh=abc');
    expect(forwarded.headers.origin).toBe('http://127.0.0.1:8080');
  });
});

describe('dashboard auth rate limit', () => {
  it('counts /dashboard/api/auth/… per client address, whatever Bearer it carries', async () => {
    const redis = testRedis('gateway_dashboard_auth');
    const limited = await startGateway({ certificate: certificate.url, mobility: mobility.url }, { redis, perMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const madeUp = signAdminToken({ sub: `acc_${i}`, org: 'org_x', role: 'owner' }, `made-up-secret-${i}-0123456789`);
        const res = await fetch(`${limited.url}/dashboard/api/auth/sessions`, { method: 'POST', headers: { Authorization: `Bearer ${madeUp}`, 'Content-Type': 'application/json' }, body: '{}' });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
      await redis.close();
    }
  });
});

describe('dashboard static files', () => {
  it('serves index.html at /dashboard and /dashboard/ with no-cache, an ETag and Last-Modified, and answers 304 when unchanged', async () => {
    for (const p of ['/dashboard', '/dashboard/']) {
      const res = await fetch(gateway.url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('last-modified')).toBeTruthy();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toBe(INDEX_HTML);
      const again = await fetch(gateway.url + p, { headers: { 'If-None-Match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
  });

  it('serves hashed assets for a year, immutable, with their content types', async () => {
    const js = await fetch(`${gateway.url}/dashboard/assets/app-3f9a1c.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('etag')).toMatch(/^W\/"/);
    expect(await js.text()).toBe(APP_JS);
    const css = await fetch(`${gateway.url}/dashboard/assets/app-3f9a1c.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const svg = await fetch(`${gateway.url}/dashboard/favicon.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('no-cache');
    const head = await fetch(`${gateway.url}/dashboard/assets/app-3f9a1c.js`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(APP_JS.length));
  });

  it.each(['/dashboard/invite/AbCdEf0123456789_-xyz', '/dashboard/certificates/cert_1', '/dashboard/settings/members', '/dashboard/test', '/dashboard/test/rides/ride_1'])('answers index.html for the app route %s (SPA)', async (p) => {
    const res = await fetch(gateway.url + p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(INDEX_HTML);
  });

  it.each(['/dashboard/assets/missing-123.js', '/dashboard/missing.png'])('a missing file %s is a JSON 404, not index.html', async (p) => {
    const res = await fetch(gateway.url + p);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it.each(['/dashboard/../secret.txt', '/dashboard/assets/../../secret.txt', '/dashboard/%2e%2e/secret.txt', '/dashboard/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/dashboard/..%5csecret.txt', '/dashboard/assets/..\\..\\secret.txt', '/dashboard/%00index.html'])(
    'refuses the traversal %s without leaking the file',
    async (p) => {
      const { status, body } = await rawGetWithBody(p);
      expect([400, 404]).toContain(status);
      expect(body).not.toContain('TOP-SECRET');
    },
  );

  it('answers other methods with 405 and Allow', async () => {
    const res = await fetch(`${gateway.url}/dashboard/`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('answers 503 dashboard_not_built when the folder has no build', async () => {
    const empty = await startGateway({ certificate: certificate.url, mobility: mobility.url }, { config: { DASHBOARD_DIR: path.join(workDir, 'nothing-here') } });
    try {
      for (const p of ['/dashboard', '/dashboard/assets/app-3f9a1c.js', '/dashboard/invite/x']) {
        const res = await fetch(empty.url + p);
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await res.json()).toMatchObject({ code: 'dashboard_not_built' });
      }
    } finally {
      await empty.close();
    }
  });
});

/** A GET with the path sent exactly as written (fetch would normalise the dot segments away). */
function rawGetWithBody(rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: rawPath, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function rawGet(rawPath: string, headers: Record<string, string> = {}): Promise<number> {
  return (await rawGetWithBody(rawPath, headers)).status;
}
