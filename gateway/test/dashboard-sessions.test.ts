import { signAdminToken } from '@platform/service-kit/admin-auth';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { dashboardToken, proxiedRequests, SESSION_CHECK, startGateway, withSessionCheck } from './helpers';

const SECRET = 'gateway-sessions-test-secret-0123456789ab';
const OWNER = { sub: 'acc_1', org: 'org_1', role: 'owner' } as const;

describe('dashboard session check at the gateway', () => {
  it('proxies a live sign-in, refuses an ended one with 401 session_ended (never proxied), and answers 503 when the service cannot say', async () => {
    const certificate = await startFakeServer(withSessionCheck((req, res) => sendJson(res, 200, { path: req.url })));
    const gateway = await startGateway({ certificate: certificate.url, mobility: certificate.url }, { config: { JWT_SECRET: SECRET } });
    const down = await startGateway({ certificate: 'http://127.0.0.1:9', mobility: certificate.url }, { config: { JWT_SECRET: SECRET } });
    try {
      const liveToken = dashboardToken(OWNER, SECRET, { ttlSeconds: 900 });
      const get = (base: string, token: string) => fetch(`${base}/dashboard/api/mobility/drivers`, { headers: { Authorization: `Bearer ${token}` } });
      const live = await get(gateway.url, liveToken);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ path: '/admin/v1/drivers' });
      expect(certificate.requests.filter((r) => r.url === SESSION_CHECK)).toHaveLength(1);

      const before = proxiedRequests(certificate).length;
      const ended = await get(gateway.url, dashboardToken({ ...OWNER, sid: 'rsf_ended' }, SECRET, { ttlSeconds: 900 }));
      expect(ended.status).toBe(401);
      expect(ended.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await ended.json()).toMatchObject({ code: 'session_ended' });
      expect(proxiedRequests(certificate).length).toBe(before);

      const unavailable = await get(down.url, liveToken);
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toBe('1');
      expect(await unavailable.json()).toMatchObject({ code: 'session_check_unavailable' });
      expect(proxiedRequests(certificate).length).toBe(before);
    } finally {
      await Promise.all([gateway.close(), down.close(), certificate.close()]);
    }
  });

  it('refuses a validly signed token that names no sign-in (no sid) with 401 session_required: nothing reaches either service, not even a session check', async () => {
    const certificate = await startFakeServer(withSessionCheck((req, res) => sendJson(res, 200, { upstream: 'certificate', path: req.url })));
    const mobility = await startFakeServer((req, res) => sendJson(res, 200, { upstream: 'mobility', path: req.url }));
    const gateway = await startGateway({ certificate: certificate.url, mobility: mobility.url }, { config: { JWT_SECRET: SECRET } });
    try {
      // What `pnpm platform token admin`, or anyone holding JWT_SECRET, signs: every claim right but `sid`.
      const sidless = signAdminToken({ ...OWNER, org_name: 'Academy' }, SECRET, { ttlSeconds: 900 });
      const requests: Array<[string, string, string | undefined]> = [
        ['GET', '/dashboard/api/mobility/drivers', undefined],
        ['POST', '/dashboard/api/certificate/certificates', JSON.stringify({ recipient_name: 'Ada', program_title: 'Engines', issue_date: '2026-05-01' })],
        ['DELETE', '/dashboard/api/certificate/members/acc_2', undefined],
        ['GET', '/dashboard/api/certificate/certificates?limit=5', undefined],
      ];
      for (const [method, path, body] of requests) {
        const res = await fetch(gateway.url + path, { method, headers: { Authorization: `Bearer ${sidless}`, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body });
        expect([method, path, res.status]).toEqual([method, path, 401]);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
        expect(await res.json()).toMatchObject({ code: 'session_required' });
      }
      expect(certificate.requests).toEqual([]);
      expect(mobility.requests).toEqual([]);

      // The same account and organization with a token naming its live sign-in is proxied.
      const live = await fetch(`${gateway.url}/dashboard/api/mobility/drivers`, { headers: { Authorization: `Bearer ${dashboardToken(OWNER, SECRET, { ttlSeconds: 900 })}` } });
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ upstream: 'mobility', path: '/admin/v1/drivers' });
      expect(certificate.requests.map((r) => r.url)).toEqual([SESSION_CHECK]);
    } finally {
      await Promise.all([gateway.close(), certificate.close(), mobility.close()]);
    }
  });
});
