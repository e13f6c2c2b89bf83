import request from 'supertest';
import { verifyJwt } from '@platform/service-kit/admin-auth';
import { createTestContext, type TestContext } from './helpers/context';
import { ORIGIN, PASSWORD, refreshCookieOf, signUp, uniqueEmail } from './factories/accounts';
import { linkToken } from './helpers/mailbox';
import { expectToMatchRouteTable } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ TRUST_PROXY_HOPS: '1' });
});
afterAll(() => ctx.close());

const post = (path: string) => request(ctx.app).post(`/accounts/v1${path}`).set('Origin', ORIGIN);
const accountsWithEmail = async (email: string) => Number((await ctx.db('accounts').whereRaw('lower(email) = lower(?)', [email]).count({ n: '*' }))[0]!.n);

describe('sign-up', () => {
  it('mails a link; using it creates the account, its organization and an owner membership, sets the refresh cookie and returns a 15-minute admin token', async () => {
    const email = uniqueEmail('owner');
    const asked = await post('/signup').send({ email, password: PASSWORD, name: 'Ada Lovelace', organization_name: 'Analytical Academy' }).expect(202);
    expectToMatchRouteTable(asked);
    expect(asked.body).toMatchObject({ status: 'mail_sent' });
    expect(await accountsWithEmail(email)).toBe(0); // nothing exists until the email is proven
    const mail = ctx.mailbox.last(email);
    expect(mail.subject).toBe('Confirm your email address');
    const res = await post('/verify-email').send({ token: linkToken(mail, 'verify-email'), password: PASSWORD }).expect(201);
    expectToMatchRouteTable(res);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      account: { email, name: 'Ada Lovelace' },
      organization: { name: 'Analytical Academy', role: 'owner' },
    });
    expect(res.body.account.id).toMatch(/^acc_[0-9a-z]{20}$/);
    expect(res.body.organization.id).toMatch(/^org_[0-9a-z]{20}$/);
    expect(res.body.memberships).toEqual([{ organization_id: res.body.organization.id, organization_name: 'Analytical Academy', role: 'owner' }]);

    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith('pp_refresh='))!;
    const attributes = cookie.split(';').map((part) => part.trim());
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/dashboard/api/auth', `Max-Age=${30 * 86400}`]));
    expect(attributes[0]).toMatch(/^pp_refresh=[A-Za-z0-9_-]{43}$/);

    const claims = verifyJwt(res.body.access_token, { secret: ctx.config.JWT_SECRET, issuer: ctx.config.JWT_ISSUER }, 'admin');
    expect(claims).toMatchObject({ sub: res.body.account.id, org: res.body.organization.id, org_name: 'Analytical Academy', role: 'owner', aud: 'admin' });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(900);

    // The token works on the admin API: the organization has the account's free credits and the owner can make a key.
    await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', `Bearer ${res.body.access_token}`).send({ name: 'first' }).expect(201);
    const organization = await ctx.db('organizations').where({ id: res.body.organization.id }).first();
    expect(organization).toMatchObject({ name: 'Analytical Academy', balance: 10 });
    const stored = await ctx.db('accounts').where({ id: res.body.account.id }).first();
    expect(stored.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(stored.password_hash).not.toContain(PASSWORD);
    expect(stored.email_verified_at).not.toBeNull();
  });

  it('without an organization answers a session without a token; such an account can create one with its cookie', async () => {
    const res = await signUp(ctx, { organization_name: undefined, name: 'Solo' });
    expect(res.body).toMatchObject({ access_token: null, organization: null, memberships: [] });
    const created = await post('/organizations').set('Cookie', res.cookie).send({ name: 'Solo Academy' }).expect(201);
    expectToMatchRouteTable(created);
    expect(created.body.organization).toMatchObject({ name: 'Solo Academy', role: 'owner' });
    // The browser's session now follows the new organization.
    const refreshed = await post('/sessions/refresh').set('Cookie', res.cookie).expect(200);
    expect(refreshed.body.organization.id).toBe(created.body.organization.id);
  });

  it('answers a taken email (whatever its case) as any other, mails its owner that someone tried, and changes nothing', async () => {
    const first = await signUp(ctx);
    const fresh = await post('/signup').send({ email: uniqueEmail('fresh'), password: PASSWORD, name: 'Fresh' }).expect(202);
    const res = await post('/signup').send({ email: first.email.toUpperCase(), password: PASSWORD, name: 'Twin', organization_name: 'Twin Academy' }).expect(202);
    expect(res.body).toEqual(fresh.body);
    const mail = ctx.mailbox.last(first.email);
    expect(mail.subject).toBe('Someone tried to sign up with your address');
    expect(mail.text).not.toMatch(/verify-email/);
    expect(await accountsWithEmail(first.email)).toBe(1);
    expect(await ctx.db('organizations').where({ name: 'Twin Academy' }).first()).toBeUndefined();
  });

  it.each([
    ['a short password', { password: 'short' }, 'password'],
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['no name', { name: '' }, 'name'],
    ['an unknown field', { admin: true }, '(body)'],
  ])('refuses %s with 422 and creates nothing', async (_label, override, path) => {
    const email = uniqueEmail('bad');
    const res = await post('/signup').send({ email, password: PASSWORD, name: 'X', ...override }).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await accountsWithEmail(email)).toBe(0);
  });

  it.each([
    ['no Origin', undefined],
    ['a foreign Origin', 'https://evil.example'],
  ])('refuses a state-changing request with %s (403 origin_not_allowed) and creates nothing', async (_label, origin) => {
    const email = uniqueEmail('csrf');
    const call = request(ctx.app).post('/accounts/v1/signup');
    if (origin) call.set('Origin', origin);
    const res = await call.send({ email, password: PASSWORD, name: 'X', organization_name: 'Y' }).expect(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('origin_not_allowed');
    expect(await accountsWithEmail(email)).toBe(0);
    const signedUp = await signUp(ctx);
    await request(ctx.app).delete('/accounts/v1/sessions/current').set('Cookie', signedUp.cookie).expect(403);
    await post('/sessions/refresh').set('Cookie', signedUp.cookie).expect(200); // the session was not signed out
  });
});

describe('sign-in', () => {
  it('answers a session with a cookie for the right password, and the same 401 for a wrong password or an unknown email', async () => {
    const account = await signUp(ctx);
    const ok = await post('/sessions').send({ email: account.email.toUpperCase(), password: PASSWORD }).expect(200);
    expectToMatchRouteTable(ok);
    expect(ok.body.organization.id).toBe(account.organizationId);
    expect(refreshCookieOf(ok)).toMatch(/^pp_refresh=/);

    const wrong = await post('/sessions').send({ email: account.email, password: 'wrong password!' }).expect(401);
    const unknown = await post('/sessions').send({ email: uniqueEmail('nobody'), password: 'wrong password!' }).expect(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('invalid_credentials');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an organization the account is not a member of', async () => {
    const account = await signUp(ctx);
    const other = await signUp(ctx);
    const res = await post('/sessions').send({ email: account.email, password: PASSWORD, organization_id: other.organizationId }).expect(403);
    expect(res.body.code).toBe('not_a_member');
  });

  it('slows one (email, address) pair down with growing delays after 5 failures, the right password included; another address still signs in', async () => {
    // Delays of 60, 120, … s so that no answer depends on how fast this machine is.
    const slow = createTestContext({ TRUST_PROXY_HOPS: '1', SIGN_IN_BASE_DELAY_S: '60' });
    const attempt = (address: string, email: string, password: string) => request(slow.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).set('X-Forwarded-For', address).send({ email, password });
    try {
      const account = await signUp(ctx);
      const address = `198.51.100.${Math.floor(Math.random() * 250)}`;
      for (let i = 0; i < 5; i++) await attempt(address, account.email, `wrong password ${i}`).expect(401);
      const res = await attempt(address, account.email, PASSWORD).expect(429);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('too_many_attempts');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.headers['set-cookie']).toBeUndefined();
      // Ten wrong passwords from elsewhere do not lock the owner out: the right password from another address works.
      for (let i = 0; i < 10; i++) await attempt(`192.0.2.${100 + i}`, account.email, `wrong password ${i}`).expect(401);
      await attempt('192.0.2.44', account.email, PASSWORD).expect(200);

      // The delay doubles with each further failure: let the pair's delay pass (its last failure moved back), fail once more.
      await slow.db('sign_in_failures').where({ subject: `login:${account.email.toLowerCase()}|${address}` }).update({ last_failed_at: slow.db.raw("now() - interval '5 minutes'") });
      await attempt(address, account.email, 'wrong again!!').expect(401);
      const slower = await attempt(address, account.email, PASSWORD).expect(429);
      expect(Number(slower.headers['retry-after'])).toBeGreaterThan(60);
      expect(Number(slower.headers['retry-after'])).toBeLessThanOrEqual(120);
    } finally {
      await slow.close();
    }
  });

  it('counts every IPv6 address of one /64 as one address for the per-address cap', async () => {
    const strict = createTestContext({ TRUST_PROXY_HOPS: '1', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '3' });
    try {
      const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
      const victim = await signUp(ctx);
      for (let i = 1; i <= 3; i++) {
        await request(strict.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).set('X-Forwarded-For', `${prefix}::${i}`).send({ email: uniqueEmail('spray'), password: 'guess guess guess' }).expect(401);
      }
      const res = await request(strict.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).set('X-Forwarded-For', `${prefix}:aaaa:bbbb:cccc:dddd`).send({ email: victim.email, password: PASSWORD }).expect(429);
      expect(res.body.code).toBe('too_many_attempts');
    } finally {
      await strict.close();
    }
  });

  it('throttles a client address after its maximum of failures across accounts (SIGN_IN_MAX_FAILURES_PER_ADDRESS), without locking others out', async () => {
    const strict = createTestContext({ TRUST_PROXY_HOPS: '1', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '3' });
    try {
      const address = `203.0.113.${Math.floor(Math.random() * 250)}`;
      const victim = await signUp(ctx);
      for (let i = 0; i < 3; i++) {
        await request(strict.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).set('X-Forwarded-For', address).send({ email: uniqueEmail('spray'), password: 'guess guess guess' }).expect(401);
      }
      const res = await request(strict.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).set('X-Forwarded-For', address).send({ email: victim.email, password: PASSWORD }).expect(429);
      expect(res.body.code).toBe('too_many_attempts');
      await request(strict.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).set('X-Forwarded-For', '192.0.2.7').send({ email: victim.email, password: PASSWORD }).expect(200);
    } finally {
      await strict.close();
    }
  });
});

describe('refresh, rotation and sign-out', () => {
  it('rotates the cookie on every refresh; presenting a spent one revokes the whole sign-in', async () => {
    const account = await signUp(ctx);
    const first = await post('/sessions/refresh').set('Cookie', account.cookie).expect(200);
    expectToMatchRouteTable(first);
    const second = refreshCookieOf(first)!;
    expect(second).not.toBe(account.cookie);
    expect(first.body.organization.id).toBe(account.organizationId);

    const reused = await post('/sessions/refresh').set('Cookie', account.cookie).expect(401);
    expect(reused.body.code).toBe('refresh_token_reused');
    expect(([] as string[]).concat(reused.headers['set-cookie'] ?? [])).toEqual([expect.stringMatching(/^pp_refresh=; Max-Age=0;/)]);
    // The thief's copy and the owner's newer cookie are both dead now.
    const after = await post('/sessions/refresh').set('Cookie', second).expect(401);
    expect(after.body.code).toBe('invalid_refresh_token');
  });

  it('answers 401 invalid_refresh_token without a cookie or with an unknown one', async () => {
    expect((await post('/sessions/refresh').expect(401)).body.code).toBe('invalid_refresh_token');
    expect((await post('/sessions/refresh').set('Cookie', 'pp_refresh=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').expect(401)).body.code).toBe('invalid_refresh_token');
  });

  it('switches organization on refresh when the account is a member, and refuses one it is not', async () => {
    const account = await signUp(ctx);
    const created = await post('/organizations').set('Authorization', `Bearer ${account.accessToken}`).send({ name: 'Second Academy' }).expect(201);
    expect(created.body.memberships).toHaveLength(2);
    const back = await post('/sessions/refresh').set('Cookie', account.cookie).send({ organization_id: account.organizationId }).expect(200);
    expect(back.body.organization.id).toBe(account.organizationId);
    const claims = verifyJwt(back.body.access_token, { secret: ctx.config.JWT_SECRET, issuer: ctx.config.JWT_ISSUER }, 'admin');
    expect(claims.org).toBe(account.organizationId);
    const stranger = await signUp(ctx);
    const refused = await post('/sessions/refresh').set('Cookie', refreshCookieOf(back)!).send({ organization_id: stranger.organizationId }).expect(403);
    expect(refused.body.code).toBe('not_a_member');
    await post('/sessions/refresh').set('Cookie', refreshCookieOf(back)!).expect(200); // a refused switch spends nothing
  });

  it('signs out: 204, the cookie is cleared and the refresh token no longer works', async () => {
    const account = await signUp(ctx);
    const res = await request(ctx.app).delete('/accounts/v1/sessions/current').set('Origin', ORIGIN).set('Cookie', account.cookie).expect(204);
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).toMatch(/^pp_refresh=; Max-Age=0; Path=\/dashboard\/api\/auth; HttpOnly; Secure; SameSite=Strict$/);
    expect((await post('/sessions/refresh').set('Cookie', account.cookie).expect(401)).body.code).toBe('invalid_refresh_token');
  });

  it('refuses to create an organization without a token or cookie, or with a token that names no account', async () => {
    expect((await post('/organizations').send({ name: 'X' }).expect(401)).body.code).toBe('missing_token');
    const { signAdminToken } = await import('@platform/service-kit');
    const foreign = signAdminToken({ sub: 'acc_aaaaaaaaaaaaaaaaaaaa', org: 'org_x', role: 'owner', sid: 'rsf_unknown' }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
    expect((await post('/organizations').set('Authorization', `Bearer ${foreign}`).send({ name: 'X' }).expect(401)).body.code).toBe('session_ended');
  });
});

describe('tokens stay bound to their sign-in', () => {
  const sidOf = (token: string) => verifyJwt(token, { secret: ctx.config.JWT_SECRET, issuer: ctx.config.JWT_ISSUER }, 'admin').sid;

  it('an organization created with a bearer token alone gets a token of the same sign-in, which ends with it', async () => {
    const account = await signUp(ctx);
    const sid = sidOf(account.accessToken!);
    expect(sid).toEqual(expect.any(String));
    const created = await post('/organizations').set('Authorization', `Bearer ${account.accessToken}`).send({ name: 'Second Academy' }).expect(201);
    expect(sidOf(created.body.access_token)).toBe(sid);

    await request(ctx.app).delete('/accounts/v1/sessions/current').set('Origin', ORIGIN).set('Cookie', account.cookie).expect(204);
    // Signed out: neither the old token nor the one it was swapped for can make more.
    for (const token of [account.accessToken, created.body.access_token]) {
      const refused = await post('/organizations').set('Authorization', `Bearer ${token}`).send({ name: 'Third Academy' }).expect(401);
      expect(refused.body.code).toBe('session_ended');
    }
    expect(await ctx.db('memberships').where({ account_id: account.accountId }).count({ n: '*' })).toEqual([{ n: '2' }]);
  });

  it('a token that names no sign-in (an operator token) cannot create an organization or accept an invitation', async () => {
    const owner = await signUp(ctx);
    const { signAdminToken } = await import('@platform/service-kit');
    const operatorToken = signAdminToken({ sub: owner.accountId, org: owner.organizationId!, role: 'owner' }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
    const refused = await post('/organizations').set('Authorization', `Bearer ${operatorToken}`).send({ name: 'Shadow Academy' }).expect(401);
    expect(refused.body.code).toBe('session_required');
    expectToMatchRouteTable(refused);
    const invitation = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', `Bearer ${owner.accessToken}`).send({ role: 'member' }).expect(201);
    const accepted = await post(`/invitations/${invitation.body.token}/accept`).set('Authorization', `Bearer ${operatorToken}`).expect(401);
    expect(accepted.body.code).toBe('session_required');
    expect(await ctx.db('memberships').where({ account_id: owner.accountId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});
