import { createHash } from 'node:crypto';
import request from 'supertest';
import { signJwt } from '@platform/service-kit/admin-auth';
import { deleteSpentDriverCredentials } from '../src/features/driver-sessions/credential-retention';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, driverToken, newAdmin, suffix, type AdminIdentity } from './factories/auth';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ DRIVER_SIGNIN_MAX_FAILURES: '3', DRIVER_ACCESS_TOKEN_TTL_S: '900' });
});
afterAll(() => ctx.close());

const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A client address of its own per test (the gateway's X-Forwarded-For), so failed sign-ins of one test never throttle another. */
let addresses = 0;
const newAddress = () => `10.${Math.floor(++addresses / 250)}.${addresses % 250}.1`;

const admin = (who: AdminIdentity) => ({
  get: (path: string) => request(ctx.app).get(`/admin/v1/drivers${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`),
  post: (path: string, body?: object) => {
    const req = request(ctx.app).post(`/admin/v1/drivers${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`);
    return body ? req.send(body) : req;
  },
});

async function register(operator: AdminIdentity = newAdmin({ role: 'operator' })) {
  const s = suffix();
  const res = await admin(operator)
    .post('', { name: `Driver ${s}`, phone: '+2348031112222', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: `LAG-${s.slice(0, 5)}`, color: 'Silver' } })
    .expect(201);
  return { operator, id: res.body.id as string, code: res.body.activation_code as string, body: res.body };
}

const signIn = (code: unknown, address = newAddress()) => request(ctx.app).post('/driver/v1/sessions').set('X-Forwarded-For', address).send({ activation_code: code });
const refresh = (token: unknown) => request(ctx.app).post('/driver/v1/sessions/refresh').send({ refresh_token: token });
const offers = (accessToken: string) => request(ctx.app).get('/driver/v1/offers').set('Authorization', `Bearer ${accessToken}`);
const signOut = (accessToken: string) => request(ctx.app).delete('/driver/v1/sessions/current').set('Authorization', `Bearer ${accessToken}`);
const codeOf = (res: request.Response) => [res.status, res.body.code];

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('driver sign-in: the whole flow', () => {
  it('register → code → session → API → refresh → reuse revokes the session → fresh code → sign out', async () => {
    const driver = await register();
    expect(driver.code).toMatch(CODE);
    const expiresIn = Date.parse(driver.body.activation_code_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3600 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600 * 1000);
    const stored = await ctx.db('driver_activation_codes').where({ driver_id: driver.id });
    expect(stored).toHaveLength(1);
    expect(stored[0].code_hash).toBe(sha256(driver.code.replace(/-/g, '')));
    expect(JSON.stringify(stored)).not.toContain(driver.code.replace(/-/g, '').slice(0, 8)); // only the hash is kept
    // The code is shown once: neither the list nor the driver's page shows it.
    expect(JSON.stringify((await admin(driver.operator).get(`/${driver.id}`).expect(200)).body)).not.toContain(driver.code);

    const session = await signIn(driver.code.toLowerCase().replace(/-/g, ' ')).expect(201); // as typed on a phone
    expect(session.headers['cache-control']).toBe('no-store');
    expect(session.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, driver: { id: driver.id, status: 'active' } });
    expect(session.body.refresh_token).toMatch(/^drt_[0-9A-Za-z]{43}$/);
    const claims = claimsOf(session.body.access_token);
    expect(claims).toMatchObject({ sub: driver.id, role: 'driver', aud: 'driver', sid: expect.stringMatching(/^dss_/) });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    expect(await ctx.db('driver_refresh_tokens').where({ token_hash: sha256(session.body.refresh_token) })).toHaveLength(1);

    await offers(session.body.access_token).expect(200);
    await request(ctx.app).post('/driver/v1/availability').set('Authorization', `Bearer ${session.body.access_token}`).send({ available: true }).expect(200);
    expect(codeOf(await signIn(driver.code))).toEqual([401, 'invalid_activation_code']); // single use

    const rotated = await refresh(session.body.refresh_token).expect(200);
    expect(rotated.body.refresh_token).not.toBe(session.body.refresh_token);
    expect(claimsOf(rotated.body.access_token).sid).toBe(claims.sid);
    await offers(rotated.body.access_token).expect(200);

    // The spent refresh token comes back: someone else holds a copy. The whole session ends.
    expect(codeOf(await refresh(session.body.refresh_token))).toEqual([401, 'refresh_token_reused']);
    const refused = await offers(rotated.body.access_token);
    expect(codeOf(refused)).toEqual([401, 'session_revoked']);
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(codeOf(await refresh(rotated.body.refresh_token))).toEqual([401, 'session_revoked']);
    expect(await ctx.db('driver_sessions').where({ id: claims.sid }).first()).toMatchObject({ revoked_reason: 'refresh_token_reused', revoked_at: expect.any(Date) });

    // The operator recovers the driver with a fresh code; signing out ends that session.
    const fresh = await admin(driver.operator).post(`/${driver.id}/activation-codes`).expect(201);
    expect(fresh.body).toEqual({ activation_code: expect.stringMatching(CODE), expires_at: expect.any(String) });
    const again = await signIn(fresh.body.activation_code).expect(201);
    await offers(again.body.access_token).expect(200);
    await signOut(again.body.access_token).expect(204);
    expect(codeOf(await offers(again.body.access_token))).toEqual([401, 'session_revoked']);
    expect(codeOf(await refresh(again.body.refresh_token))).toEqual([401, 'session_revoked']);
    expect(codeOf(await signOut(again.body.access_token))).toEqual([401, 'session_revoked']);
  });

  it('refuses a disabled driver at its next request, its refresh, and a new code for it', async () => {
    const driver = await register();
    const session = await signIn(driver.code).expect(201);
    await admin(driver.operator).post(`/${driver.id}/disable`).expect(200);
    expect(codeOf(await offers(session.body.access_token))).toEqual([401, 'driver_disabled']);
    expect(codeOf(await refresh(session.body.refresh_token))).toEqual([401, 'driver_disabled']);
    expect(codeOf(await admin(driver.operator).post(`/${driver.id}/activation-codes`))).toEqual([409, 'driver_disabled']);
  });

  it('refuses the code of a driver disabled before signing in, and keeps the code unspent', async () => {
    const driver = await register();
    await admin(driver.operator).post(`/${driver.id}/disable`).expect(200);
    expect(codeOf(await signIn(driver.code))).toEqual([401, 'driver_disabled']);
    expect(await ctx.db('driver_activation_codes').where({ driver_id: driver.id }).first()).toMatchObject({ used_at: null });
    expect(await ctx.db('driver_sessions').where({ driver_id: driver.id })).toHaveLength(0);
  });
});

describe('activation codes', () => {
  it('refuses an expired code with activation_code_expired and opens no session', async () => {
    const driver = await register();
    await ctx.db('driver_activation_codes').where({ driver_id: driver.id }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    const res = await signIn(driver.code);
    expect(codeOf(res)).toEqual([401, 'activation_code_expired']);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await ctx.db('driver_sessions').where({ driver_id: driver.id })).toHaveLength(0);
  });

  it('refuses wrong and malformed codes with invalid_activation_code, and a body without a code with 422', async () => {
    expect(codeOf(await signIn('ZZZZ-ZZZZ-ZZZZ'))).toEqual([401, 'invalid_activation_code']);
    expect(codeOf(await signIn('not a code'))).toEqual([401, 'invalid_activation_code']);
    const missing = await request(ctx.app).post('/driver/v1/sessions').send({}).expect(422);
    expect(missing.body.details[0].path).toBe('activation_code');
    await request(ctx.app).post('/driver/v1/sessions').set('Content-Type', 'text/plain').send('K7QF-3M9X-TR2D').expect(415);
  });

  it('lets only one of two simultaneous sign-ins with the same code through', async () => {
    const driver = await register();
    const results = await Promise.all([signIn(driver.code), signIn(driver.code)]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 401]);
    expect(await ctx.db('driver_sessions').where({ driver_id: driver.id })).toHaveLength(1);
  });

  it('a fresh code replaces the unused one and ends the open session (a lost device is shut out)', async () => {
    const driver = await register();
    const session = await signIn(driver.code).expect(201);
    const first = await admin(driver.operator).post(`/${driver.id}/activation-codes`).expect(201);
    expect(codeOf(await offers(session.body.access_token))).toEqual([401, 'session_revoked']);
    const second = await admin(driver.operator).post(`/${driver.id}/activation-codes`).expect(201);
    expect(codeOf(await signIn(first.body.activation_code))).toEqual([401, 'invalid_activation_code']);
    await signIn(second.body.activation_code).expect(201);
  });

  it('two fresh codes issued at once leave exactly one that signs in', async () => {
    const driver = await register();
    const [a, b] = await Promise.all([admin(driver.operator).post(`/${driver.id}/activation-codes`).expect(201), admin(driver.operator).post(`/${driver.id}/activation-codes`).expect(201)]);
    const results = [await signIn(a.body.activation_code), await signIn(b.body.activation_code)];
    expect(results.map((res) => res.status).sort()).toEqual([201, 401]);
  });

  it('signing in again ends the earlier session (one signed-in device per driver)', async () => {
    const driver = await register();
    const phone = await signIn(driver.code).expect(201);
    const code = await admin(driver.operator).post(`/${driver.id}/activation-codes`).expect(201);
    const tablet = await signIn(code.body.activation_code).expect(201);
    expect(codeOf(await offers(phone.body.access_token))).toEqual([401, 'session_revoked']);
    await offers(tablet.body.access_token).expect(200);
  });

  it('throttles failed sign-ins per address with 429 and Retry-After, without spending the right code', async () => {
    const driver = await register();
    const address = newAddress();
    for (let i = 0; i < 3; i++) expect(codeOf(await signIn('ZZZZ-ZZZZ-ZZZ0', address))).toEqual([401, 'invalid_activation_code']);
    const limited = await signIn(driver.code, address);
    expect(codeOf(limited)).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await ctx.db('driver_activation_codes').where({ driver_id: driver.id }).first()).toMatchObject({ used_at: null });
    await signIn(driver.code, newAddress()).expect(201); // another address is not held back
  });
});

describe('refresh tokens and sign-out', () => {
  it('refuses unknown, malformed and expired refresh tokens with invalid_refresh_token', async () => {
    expect(codeOf(await refresh(`drt_${'A'.repeat(43)}`))).toEqual([401, 'invalid_refresh_token']);
    expect(codeOf(await refresh('nonsense'))).toEqual([401, 'invalid_refresh_token']);
    await refresh(42).expect(422);
    const driver = await register();
    const session = await signIn(driver.code).expect(201);
    await ctx.db('driver_refresh_tokens').where({ token_hash: sha256(session.body.refresh_token) }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect(codeOf(await refresh(session.body.refresh_token))).toEqual([401, 'invalid_refresh_token']);
    await offers(session.body.access_token).expect(200); // an expired refresh token does not end the session's access token
  });

  it('keeps accepting operator-minted tokens without a session; they have no session to sign out (404)', async () => {
    const driver = await register();
    const legacy = driverToken(ctx, driver.id);
    await offers(legacy).expect(200);
    expect(codeOf(await signOut(legacy))).toEqual([404, 'not_found']);
    await offers(legacy).expect(200);
  });

  it("refuses a token whose sid is not a session, or another driver's session", async () => {
    const driver = await register();
    const other = await register();
    const session = await signIn(other.code).expect(201);
    const now = Math.floor(Date.now() / 1000);
    const forged = (sid: unknown) => signJwt({ sub: driver.id, role: 'driver', sid, aud: 'driver', iss: ctx.config.JWT_ISSUER, exp: now + 60 }, ctx.config.JWT_SECRET);
    expect(codeOf(await offers(forged(claimsOf(session.body.access_token).sid)))).toEqual([401, 'session_revoked']);
    expect(codeOf(await offers(forged('dss_00000000000000000000')))).toEqual([401, 'session_revoked']);
    expect(codeOf(await offers(forged(42)))).toEqual([401, 'invalid_token']);
  });
});

describe('admin drivers: reading and codes are tenant isolated', () => {
  it("answers the organization's own driver, and 404 for another organization's driver or a malformed id", async () => {
    const driver = await register();
    const res = await admin(driver.operator).get(`/${driver.id}`).expect(200);
    expect(res.body).toMatchObject({ id: driver.id, status: 'active', serves_all_partners: false });
    const owner = newAdmin({ org: driver.operator.org, role: 'owner' });
    await admin(owner).get(`/${driver.id}`).expect(200);

    const stranger = newAdmin({ role: 'operator' });
    expect(codeOf(await admin(stranger).get(`/${driver.id}`))).toEqual([404, 'not_found']);
    expect(codeOf(await admin(stranger).post(`/${driver.id}/activation-codes`))).toEqual([404, 'not_found']);
    await admin(stranger).get('/drv_nope').expect(404);
    await admin(stranger).post('/drv_nope/activation-codes').expect(404);
    // The stranger's attempt changed nothing: the driver's code still works.
    await signIn(driver.code).expect(201);
  });

  it('refuses members (403) and lets platform operators issue codes for the platform fleet', async () => {
    const driver = await register();
    await admin(newAdmin({ org: driver.operator.org, role: 'member' })).get(`/${driver.id}`).expect(403);
    await admin(newAdmin({ org: driver.operator.org, role: 'member' })).post(`/${driver.id}/activation-codes`).expect(403);
    const platform = newAdmin({ role: 'platform_operator' });
    const fleetDriver = await register(platform);
    expect(fleetDriver.body.serves_all_partners).toBe(true);
    await admin(platform).post(`/${fleetDriver.id}/activation-codes`).expect(201);
    expect((await admin(platform).get('').expect(200)).body.data.map((d: { id: string }) => d.id)).toEqual([fleetDriver.id]);
  });
});

describe('clean-up of spent credentials (worker job)', () => {
  it('deletes expired refresh tokens, long-ended sessions and long-expired codes, and keeps what still works', async () => {
    const active = await register();
    const session = await signIn(active.code).expect(201);
    const rotated = await refresh(session.body.refresh_token).expect(200);
    await ctx.db('driver_refresh_tokens').where({ token_hash: sha256(session.body.refresh_token) }).update({ expires_at: ctx.db.raw("now() - interval '2 days'") });

    const ended = await register();
    const endedSession = await signIn(ended.code).expect(201);
    await signOut(endedSession.body.access_token).expect(204);
    const endedSid = claimsOf(endedSession.body.access_token).sid as string;
    await ctx.db('driver_sessions').where({ id: endedSid }).update({ revoked_at: ctx.db.raw("now() - interval '31 days'") });

    const stale = await register();
    await ctx.db('driver_activation_codes').where({ driver_id: stale.id }).update({ expires_at: ctx.db.raw("now() - interval '31 days'") });
    const fresh = await register();

    expect(await deleteSpentDriverCredentials(ctx.db)).toMatchObject({ ran: true });
    expect(await ctx.db('driver_refresh_tokens').where({ token_hash: sha256(session.body.refresh_token) })).toHaveLength(0);
    expect(await ctx.db('driver_sessions').where({ id: endedSid })).toHaveLength(0);
    expect(await ctx.db('driver_refresh_tokens').where({ token_hash: sha256(endedSession.body.refresh_token) })).toHaveLength(0);
    expect(await ctx.db('driver_activation_codes').where({ driver_id: stale.id })).toHaveLength(0);

    await offers(rotated.body.access_token).expect(200);
    await refresh(rotated.body.refresh_token).expect(200);
    await signIn(fresh.code).expect(201);
  });
});
