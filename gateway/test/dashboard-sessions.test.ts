import { signAdminToken, type AdminClaims } from '@platform/service-kit/admin-auth';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { startGateway } from './helpers';

const SECRET = 'gateway-sessions-test-secret-0123456789ab';
const CHECK = '/internal/v1/dashboard-sessions/check';
const withSid = (sid: string) => signAdminToken({ sub: 'acc_1', org: 'org_1', role: 'owner', sid } as AdminClaims, SECRET, { ttlSeconds: 900 });

describe('dashboard session check at the gateway', () => {
  it('proxies a live sign-in, refuses an ended one with 401 session_ended (never proxied), and answers 503 when the service cannot say', async () => {
    // Signed once: a token signed again a second later carries another `iat`, and the fake would take it for another sign-in.
    const liveToken = withSid('rsf_live');
    const certificate = await startFakeServer((req, res) => {
      if (req.url === CHECK) {
        const live = req.headers.authorization === `Bearer ${liveToken}`;
        if (live) return void res.writeHead(204).end();
        return sendJson(res, 401, { error: 'ended', code: 'session_ended' });
      }
      sendJson(res, 200, { path: req.url });
    });
    const gateway = await startGateway({ certificate: certificate.url, mobility: certificate.url }, { config: { JWT_SECRET: SECRET } });
    const down = await startGateway({ certificate: 'http://127.0.0.1:9', mobility: certificate.url }, { config: { JWT_SECRET: SECRET } });
    try {
      const get = (base: string, token: string) => fetch(`${base}/dashboard/api/mobility/drivers`, { headers: { Authorization: `Bearer ${token}` } });
      const live = await get(gateway.url, liveToken);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ path: '/admin/v1/drivers' });

      const before = certificate.requests.filter((r) => r.url !== CHECK).length;
      const ended = await get(gateway.url, withSid('rsf_ended'));
      expect(ended.status).toBe(401);
      expect(ended.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await ended.json()).toMatchObject({ code: 'session_ended' });
      expect(certificate.requests.filter((r) => r.url !== CHECK).length).toBe(before);

      const unavailable = await get(down.url, liveToken);
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toBe('1');
      expect(await unavailable.json()).toMatchObject({ code: 'session_check_unavailable' });
      expect(certificate.requests.filter((r) => r.url !== CHECK).length).toBe(before);
    } finally {
      await Promise.all([gateway.close(), down.close(), certificate.close()]);
    }
  });
});
