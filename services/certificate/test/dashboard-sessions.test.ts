import { createServer } from 'node:http';
import pino from 'pino';
import { createGateway, type Gateway } from '@platform/gateway';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { clearRedisPrefix, listen, newRedisPrefix, redisUrl, waitFor, type RunningServer } from '@platform/test-kit';
import { createRedisSessionEvents, sessionEndedChannel, type SessionEvents } from '../src/features/accounts/session-events';
import { createTestContext, type TestContext } from './helpers/context';
import { linkToken } from './helpers/mailbox';
import { ORIGIN, PASSWORD, uniqueEmail } from './factories/accounts';

/**
 * Access tokens through the gateway's dashboard API end with their sign-in: after sign-out or removal from the
 * organization the same unexpired token is refused at once (the gateway had cached it as live), and a sign-in past its
 * maximum lifetime cannot be refreshed.
 */
const MAX_LIFETIME_S = 60;
let ctx: TestContext;
let events: SessionEvents;
let redis: Redis;
let prefix: string;
let service: RunningServer;
let gateway: RunningServer;
let gatewayApp: Gateway;

beforeAll(async () => {
  prefix = newRedisPrefix('cert_sessions');
  events = createRedisSessionEvents(redisUrl(), prefix, pino({ level: 'silent' }));
  ctx = createTestContext({ SESSION_MAX_LIFETIME_S: String(MAX_LIFETIME_S) }, { sessionEvents: events });
  service = await listen(createServer(ctx.app));
  redis = createRedis(redisUrl());
  gatewayApp = createGateway({
    config: { CERTIFICATE_URL: service.url, MOBILITY_URL: 'http://127.0.0.1:9', UPSTREAM_TIMEOUT_MS: 5000, JWT_SECRET: ctx.config.JWT_SECRET, REDIS_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: 100000, DASHBOARD_SESSION_CACHE_MS: 60000 },
    logger: pino({ level: 'silent' }),
    redis,
  });
  gateway = await listen(createServer(gatewayApp.public));
  // The gateway listens for ended sessions: from now on it caches live answers, and only a notification drops them.
  await waitFor(async () => ((await redis.pubsub('NUMSUB', sessionEndedChannel(prefix))) as [string, number])[1] >= 1, 'the gateway subscribed');
});
afterAll(async () => {
  await gateway.close();
  gatewayApp.close();
  await service.close();
  await events.close();
  await ctx.close();
  await clearRedisPrefix(prefix);
  redis.disconnect();
});

interface Session {
  email: string;
  accessToken: string;
  cookie: string;
  accountId: string;
}

/** Signs up through the gateway as a person does: asks (202), reads the mailed link, confirms the email (201, signed in). */
async function signUp(body: Record<string, unknown>): Promise<Session> {
  const email = uniqueEmail();
  const asked = await fetch(`${gateway.url}/dashboard/api/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
    body: JSON.stringify({ email, password: PASSWORD, name: 'Ada Lovelace', ...body }),
  });
  expect(asked.status).toBe(202);
  const res = await fetch(`${gateway.url}/dashboard/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
    body: JSON.stringify({ token: linkToken(ctx.mailbox.last(email), 'verify-email'), password: PASSWORD }),
  });
  expect(res.status).toBe(201);
  const session = (await res.json()) as { access_token: string; account: { id: string } };
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('pp_refresh='))!.split(';')[0]!;
  return { email, accessToken: session.access_token, cookie, accountId: session.account.id };
}

const admin = (session: Session, path: string, init: RequestInit = {}) =>
  fetch(`${gateway.url}/dashboard/api/certificate${path}`, { ...init, headers: { Authorization: `Bearer ${session.accessToken}`, 'Content-Type': 'application/json', ...init.headers } });

async function expectSessionEnded(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await res.json()).toMatchObject({ code: 'session_ended' });
}

/** A POST to the accounts routes through the gateway, as the dashboard sends it (Origin; Bearer or cookie when given). */
const accounts = (path: string, body: unknown, auth: { token?: string; cookie?: string } = {}) =>
  fetch(`${gateway.url}/dashboard/api/auth${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...(auth.token ? { Authorization: `Bearer ${auth.token}` } : {}), ...(auth.cookie ? { Cookie: auth.cookie } : {}) },
    body: JSON.stringify(body),
  });

/** The access token of a session answer (checked 200/201) and the refresh cookie it set, if any. */
async function sessionOf(res: Response): Promise<{ accessToken: string; cookie?: string; organizationId: string }> {
  expect([200, 201]).toContain(res.status);
  const body = (await res.json()) as { access_token: string; organization: { id: string } };
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('pp_refresh='))?.split(';')[0];
  return { accessToken: body.access_token, cookie, organizationId: body.organization.id };
}

describe('dashboard sessions checked at the gateway', () => {
  it('every access token the accounts routes hand out names its sign-in and is proxied on /dashboard/api/certificate', async () => {
    const issued: Array<[string, string]> = [];
    const owner = await signUp({ organization_name: 'Issuer Academy' });
    issued.push(['verify-email', owner.accessToken]);
    const { email } = owner;
    const signedIn = await sessionOf(await accounts('/sessions', { email, password: PASSWORD }));
    issued.push(['sign-in', signedIn.accessToken]);
    const refreshed = await sessionOf(await accounts('/sessions/refresh', {}, { cookie: signedIn.cookie }));
    issued.push(['refresh', refreshed.accessToken]);
    const created = await sessionOf(await accounts('/organizations', { name: 'Second Issuer Academy' }, { token: refreshed.accessToken }));
    issued.push(['organization creation', created.accessToken]);
    const switched = await sessionOf(await accounts('/sessions/refresh', { organization_id: created.organizationId }, { cookie: refreshed.cookie }));
    expect(switched.organizationId).not.toBe(refreshed.organizationId);
    issued.push(['refresh switching organization', switched.accessToken]);

    const invitation = await admin(owner, '/invitations', { method: 'POST', body: JSON.stringify({ role: 'member' }) });
    expect(invitation.status).toBe(201);
    const other = await signUp({ organization_name: 'Invitee Academy' });
    const accepted = await sessionOf(await accounts(`/invitations/${((await invitation.json()) as { token: string }).token}/accept`, {}, { token: other.accessToken }));
    issued.push(['invitation acceptance', accepted.accessToken]);

    const expectProxied = async () => {
      for (const [how, token] of issued.splice(0)) {
        const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid?: string };
        expect([how, sid]).toEqual([how, expect.stringMatching(/^rsf_/)]);
        const res = await fetch(`${gateway.url}/dashboard/api/certificate/members`, { headers: { Authorization: `Bearer ${token}` } });
        expect([how, res.status]).toEqual([how, 200]);
      }
    };
    await expectProxied();

    // Last: a password reset signs the account's other browsers out.
    expect((await accounts('/password-reset', { email })).status).toBe(202);
    const reset = await sessionOf(await accounts('/password-reset/confirm', { token: linkToken(await ctx.mailbox.arrived(email, 2), 'reset-password'), password: 'a brand new password' }));
    issued.push(['password reset', reset.accessToken]);
    await expectProxied();
  });

  it('refuses the still-unexpired access token right after sign-out', async () => {
    const owner = await signUp({ organization_name: 'Signed Out Academy' });
    expect((await admin(owner, '/api-keys')).status).toBe(200);
    expect((await admin(owner, '/api-keys')).status).toBe(200); // answered from the gateway's cache
    const signOut = await fetch(`${gateway.url}/dashboard/api/auth/sessions/current`, { method: 'DELETE', headers: { Cookie: owner.cookie, Origin: ORIGIN } });
    expect(signOut.status).toBe(204);
    await expectSessionEnded(await admin(owner, '/api-keys'));
  });

  it('refuses a removed member’s still-unexpired access token, and keeps answering the owner', async () => {
    const owner = await signUp({ organization_name: 'Removal Academy' });
    const invitation = await admin(owner, '/invitations', { method: 'POST', body: JSON.stringify({ role: 'member' }) });
    expect(invitation.status).toBe(201);
    const member = await signUp({ invitation_token: ((await invitation.json()) as { token: string }).token });
    expect((await admin(member, '/members')).status).toBe(200);
    expect((await admin(member, '/members')).status).toBe(200); // cached as live
    expect((await admin(owner, `/members/${member.accountId}`, { method: 'DELETE' })).status).toBe(204);
    await expectSessionEnded(await admin(member, '/members'));
    expect((await admin(owner, '/members')).status).toBe(200);
  });

  it('does not refresh a sign-in past SESSION_MAX_LIFETIME_S (401 JSON), and its access token ends with it', async () => {
    const owner = await signUp({ organization_name: 'Old Sign-in Academy' });
    const refresh = () => fetch(`${gateway.url}/dashboard/api/auth/sessions/refresh`, { method: 'POST', headers: { Cookie: owner.cookie, Origin: ORIGIN, 'Content-Type': 'application/json' }, body: '{}' });
    const first = await refresh();
    expect(first.status).toBe(200);
    owner.cookie = first.headers.getSetCookie().find((line) => line.startsWith('pp_refresh='))!.split(';')[0]!;
    owner.accessToken = ((await first.json()) as { access_token: string }).access_token;
    expect((await admin(owner, '/api-keys')).status).toBe(200);
    // The sign-in began longer ago than its maximum lifetime (its sessions are otherwise live, the last one just rotated).
    await ctx.db('refresh_sessions').where({ account_id: owner.accountId }).update({ created_at: ctx.db.raw(`created_at - interval '${MAX_LIFETIME_S + 1} seconds'`) });
    const late = await refresh();
    expect(late.status).toBe(401);
    expect(late.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await late.json()).toMatchObject({ code: 'session_expired' });
    await expectSessionEnded(await admin(owner, '/api-keys'));
  });

  it('ends a sign-in’s refresh session at its maximum lifetime, not 30 days on', async () => {
    const owner = await signUp({ organization_name: 'Cookie Academy' });
    const rows = await ctx.db('refresh_sessions').where({ account_id: owner.accountId }).select('created_at', 'expires_at');
    expect(rows).toHaveLength(1);
    expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBeLessThanOrEqual(MAX_LIFETIME_S * 1000 + 1000);
  });
});
