/**
 * A stand-in for the gateway in the browser test: serves a build of the app under /dashboard/ (hashed assets, SPA
 * fallback to index.html) and answers a few accounts and admin routes with the contract's cookie rules, so a real
 * browser exercises the base path, the refresh cookie and the Origin header.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** The last `count` UTC days, oldest first, as YYYY-MM-DD. */
const lastDays = (count: number) => Array.from({ length: count }, (_, i) => new Date(Date.now() - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html; charset=utf-8' };
const COOKIE = 'pp_refresh';

export interface FakeGateway {
  origin: string;
  /** Origin headers seen on state-changing requests. */
  origins: (string | undefined)[];
  /** The token of the last sign-up's mailed link (the real service mails it). */
  lastVerificationToken: () => string | undefined;
  close: () => Promise<void>;
}

export async function startFakeGateway(distDir: string): Promise<FakeGateway> {
  const origins: (string | undefined)[] = [];
  const sessions = new Map<string, { email: string; name: string; organization: string }>();
  const keys: object[] = [];
  let refreshCount = 0;
  let origin = '';
  const pending = new Map<string, { email: string; name: string; organization: string; password: string }>();
  let lastVerificationToken: string | undefined;

  const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const problem = (response: ServerResponse, status: number, code: string) =>
    json(response, status, { type: `https://docs.partner-platform.example/errors/${code}`, title: code, status, detail: code, error: code, code });
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, string>) : {};
  };
  const sessionAnswer = (account: { email: string; name: string; organization: string }) => ({
    access_token: `access-${++refreshCount}`,
    token_type: 'Bearer',
    expires_in: 900,
    account: { id: 'acc_1', email: account.email, name: account.name },
    organization: { id: 'org_1', name: account.organization, role: 'owner' },
    memberships: [{ organization_id: 'org_1', organization_name: account.organization, role: 'owner' }],
  });
  /** Issues a new refresh token (rotation) and the cookie that carries it. */
  const rotate = (account: { email: string; name: string; organization: string }) => {
    const token = `r${refreshCount}-${Math.random().toString(36).slice(2)}`;
    sessions.set(token, account);
    return { 'set-cookie': `${COOKIE}=${token}; HttpOnly; Secure; SameSite=Strict; Path=/dashboard/api/auth` };
  };
  const cookieOf = (request: IncomingMessage) =>
    (request.headers.cookie ?? '').split(/;\s*/).find((part) => part.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1);

  const api = async (request: IncomingMessage, response: ServerResponse, route: string) => {
    if (request.method !== 'GET') {
      origins.push(request.headers.origin);
      if (route.startsWith('/dashboard/api/auth/') && request.headers.origin !== origin) return problem(response, 403, 'origin_not_allowed');
    }
    if (route === 'POST /dashboard/api/auth/signup') {
      const body = await readBody(request);
      lastVerificationToken = `verify${Math.random().toString(36).slice(2)}${'x'.repeat(20)}`;
      pending.set(lastVerificationToken, { email: body.email!, name: body.name!, organization: body.organization_name!, password: body.password! });
      return json(response, 202, { status: 'mail_sent', message: 'Check your inbox: we sent a link to confirm your email address.' });
    }
    if (route === 'POST /dashboard/api/auth/verify-email') {
      const body = await readBody(request);
      const account = pending.get(body.token ?? '');
      if (!account) return problem(response, 404, 'token_not_found');
      // As the real service: the link makes the account only with the password chosen at sign-up.
      if (body.password !== account.password) return problem(response, 401, 'invalid_credentials');
      pending.clear();
      return json(response, 201, sessionAnswer(account), rotate(account));
    }
    if (route === 'POST /dashboard/api/auth/sessions/refresh') {
      const token = cookieOf(request);
      const account = token ? sessions.get(token) : undefined;
      if (!token || !account) return problem(response, 401, 'invalid_refresh_token');
      sessions.delete(token);
      const answer = sessionAnswer(account);
      return json(response, 200, answer, rotate(account));
    }
    const bearer = request.headers.authorization;
    if (!bearer?.startsWith('Bearer access-')) return problem(response, 401, 'missing_token');
    if (route === 'GET /dashboard/api/mobility/api-keys') return json(response, 200, { data: keys, has_more: false, next_cursor: null });
    // The home page's charts: 30 days of numbers (the widest the charts get).
    if (route === 'GET /dashboard/api/certificate/summary') {
      return json(response, 200, { days: lastDays(30).map((date, i) => ({ date, certificates_issued: i % 7, credits_used: (i * 13) % 40 })), certificates_issued: 63, credits_used_this_month: 1200 });
    }
    if (route === 'GET /dashboard/api/mobility/summary') {
      const days = lastDays(30).map((date, i) => ({ date, rides: i % 5, deliveries: (i * 3) % 8, webhook_attempts: i % 4, webhook_succeeded: i % 3 }));
      return json(response, 200, { mode: 'live', endpoint_id: null, days, totals: { rides: 60, deliveries: 100, webhook_attempts: 45, webhook_succeeded: 30 } });
    }
    // One ride in each mode: the test one is what a `?mode=test` call sees.
    if (route === 'GET /dashboard/api/mobility/rides') {
      const id = new URL(request.url ?? '/', origin).searchParams.get('mode') === 'test' ? 'ride_test_1' : 'ride_live_1';
      const ride = { id, status: 'pending', tier: 'economy', fare: { amount: 150000, currency: 'NGN' }, created_at: new Date(0).toISOString() };
      return json(response, 200, { data: [ride], has_more: false, next_cursor: null });
    }
    if (route === 'POST /dashboard/api/mobility/api-keys') {
      const body = await readBody(request);
      const key = { id: `key_${keys.length + 1}`, name: body.name, status: 'active', scopes: body.scopes, mode: body.mode, token_hint: 'abcd',
        created_at: new Date(0).toISOString(), updated_at: new Date(0).toISOString(), last_used_at: null, expires_at: null, rotated_at: null,
        revoked_at: null, previous_token_expires_at: null };
      keys.push(key);
      return json(response, 201, { ...key, token: 'mk_test_browser_token' });
    }
    return problem(response, 404, 'route_not_found');
  };

  const files = async (response: ServerResponse, pathname: string) => {
    const asset = pathname.startsWith('/dashboard/assets/') ? path.join(distDir, path.normalize(pathname.slice('/dashboard/'.length))) : null;
    const file = asset && asset.startsWith(distDir) ? asset : path.join(distDir, 'index.html');
    try {
      const content = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(content);
    } catch {
      response.writeHead(404).end();
    }
  };

  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', origin);
    const handled = pathname.startsWith('/dashboard/api/') ? api(request, response, `${request.method} ${pathname}`) : files(response, pathname);
    handled.catch(() => problem(response, 500, 'internal_error'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    origins,
    lastVerificationToken: () => lastVerificationToken,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
