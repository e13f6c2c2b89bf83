import request from 'supertest';
import { newId } from '@platform/service-kit/ids';
import { createTestContext, type TestContext } from './helpers/context';
import { ORIGIN, PASSWORD, refreshCookieOf, signUp, uniqueEmail } from './factories/accounts';
import { linkToken } from './helpers/mailbox';
import { expectToMatchRouteTable } from './helpers/openapi';
import { hashPassword } from '../src/features/accounts/passwords';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL: 'https://platform.example', MAIL_FROM: 'Platform <accounts@platform.example>' });
});
afterAll(() => ctx.close());

const post = (path: string) => request(ctx.app).post(`/accounts/v1${path}`).set('Origin', ORIGIN);
const bearer = (token: string | null) => `Bearer ${token}`;

describe('email verification', () => {
  it('mails a one-time link from MAIL_FROM over SMTP; the account exists only once it is used', async () => {
    const email = uniqueEmail('verify');
    await post('/signup').send({ email, password: PASSWORD, name: 'Ada', organization_name: 'Verified Academy' }).expect(202);
    const mail = ctx.mailbox.last(email);
    expect(mail.from).toBe('accounts@platform.example');
    expect(mail.text).toContain('https://platform.example/dashboard/verify-email/');
    const token = linkToken(mail, 'verify-email');
    // Only the token's hash is stored, and it expires.
    const stored = await ctx.db('email_tokens').where({ email, purpose: 'sign_up' }).first();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(new Date(stored.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(JSON.stringify(stored.sign_up)).not.toContain(PASSWORD);
    // Before the link is used nobody can sign in with that email.
    await post('/sessions').send({ email, password: PASSWORD }).expect(401);

    const verified = await post('/verify-email').send({ token, password: PASSWORD }).expect(201);
    expect(verified.body.account.email).toBe(email);
    await post('/sessions').send({ email, password: PASSWORD }).expect(200);
    const again = await post('/verify-email').send({ token, password: PASSWORD }).expect(404);
    expectToMatchRouteTable(again);
    expect(again.body.code).toBe('token_not_found');
  });

  it('refuses an expired or malformed token with 4xx JSON', async () => {
    const email = uniqueEmail('late');
    await post('/signup').send({ email, password: PASSWORD, name: 'Late' }).expect(202);
    const token = linkToken(ctx.mailbox.last(email), 'verify-email');
    await ctx.db('email_tokens').where({ email }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect((await post('/verify-email').send({ token, password: PASSWORD }).expect(404)).body.code).toBe('token_not_found');
    expect((await post('/verify-email').send({ token: 'short', password: PASSWORD }).expect(422)).body.code).toBe('validation_failed');
    expect((await post('/verify-email').send({}).expect(422)).headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('a first sign-up does not claim the email: the real owner verifies, the squatter never can', async () => {
    const email = uniqueEmail('victim');
    await post('/signup').send({ email, password: 'the squatter password', name: 'Squatter', organization_name: 'Fake Co' }).expect(202);
    await post('/signup').send({ email, password: PASSWORD, name: 'Owner', organization_name: 'Real Co' }).expect(202);
    // Both links went to the owner's inbox; the owner uses the second one.
    const [, own] = ctx.mailbox.to(email);
    const session = await post('/verify-email').send({ token: linkToken(own!, 'verify-email'), password: PASSWORD }).expect(201);
    expect(session.body.organization.name).toBe('Real Co');
    await post('/sessions').send({ email, password: 'the squatter password' }).expect(401);
  });
});

describe('pre-registration takeover (issue 35)', () => {
  const SQUATTER_PASSWORD = 'the squatter password';
  const accountsWith = async (email: string) => ctx.db('accounts').whereRaw('lower(email) = lower(?)', [email]).select('id', 'password_hash', 'email_verified_at');

  it("an attacker's sign-up for the victim's address never becomes an account when the victim clicks the mailed link", async () => {
    const victim = uniqueEmail('victim');
    await post('/signup').send({ email: victim, password: SQUATTER_PASSWORD, name: 'Victim', organization_name: 'Squatter Co' }).expect(202);
    // The mail goes to the victim: an unexpected "confirm your email address".
    const mail = ctx.mailbox.last(victim);
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.text).toContain('password you chose');
    const token = linkToken(mail, 'verify-email');

    // Clicking "confirm" alone (the old contract: the token only) makes nothing.
    const bare = await post('/verify-email').send({ token }).expect(422);
    expect(bare.body.code).toBe('validation_failed');
    // The victim does not know the attacker's password; with their own, the link makes nothing either.
    const wrong = await post('/verify-email').send({ token, password: 'the victim own password' }).expect(401);
    expectToMatchRouteTable(wrong);
    expect(wrong.body.code).toBe('invalid_credentials');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(await accountsWith(victim)).toEqual([]);
    await post('/sessions').send({ email: victim, password: SQUATTER_PASSWORD }).expect(401);
    // No organization was made for the attacker either, and the link was not used up by the refusal.
    expect(await ctx.db('organizations').where({ name: 'Squatter Co' }).first()).toBeUndefined();
    expect((await ctx.db('email_tokens').where({ email: victim, purpose: 'sign_up' }).first()).used_at).toBeNull();
  });

  it('wrong passwords on a link count towards the sign-in throttle: 429 too_many_attempts with Retry-After', async () => {
    const victim = uniqueEmail('victim');
    await post('/signup').send({ email: victim, password: SQUATTER_PASSWORD, name: 'Victim' }).expect(202);
    const token = linkToken(ctx.mailbox.last(victim), 'verify-email');
    await ctx.db('sign_in_failures').insert({ subject: `login:${victim}|127.0.0.1`, failures: 30, window_started_at: ctx.db.fn.now(), last_failed_at: ctx.db.fn.now() });
    const throttled = await post('/verify-email').send({ token, password: SQUATTER_PASSWORD }).expect(429);
    expect(throttled.body.code).toBe('too_many_attempts');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(await accountsWith(victim)).toEqual([]);
  });

  it("the victim's own sign-up voids the attacker's pending link; only the newest link, with its own password, makes the account", async () => {
    const victim = uniqueEmail('victim');
    await post('/signup').send({ email: victim, password: SQUATTER_PASSWORD, name: 'Squatter', organization_name: 'Squatter Co' }).expect(202);
    await post('/signup').send({ email: victim, password: PASSWORD, name: 'Victim', organization_name: 'Victim Co' }).expect(202);
    const [squatterMail, ownMail] = ctx.mailbox.to(victim);
    const rows = await ctx.db('email_tokens').where({ email: victim, purpose: 'sign_up' }).orderBy('created_at').select('used_at');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.used_at).not.toBeNull(); // voided by the newer sign-up
    expect(rows[1]!.used_at).toBeNull();

    // The attacker's link is dead, whatever the password (even the attacker's own, had they the link).
    expect((await post('/verify-email').send({ token: linkToken(squatterMail!, 'verify-email'), password: SQUATTER_PASSWORD }).expect(404)).body.code).toBe('token_not_found');
    const session = await post('/verify-email').send({ token: linkToken(ownMail!, 'verify-email'), password: PASSWORD }).expect(201);
    expect(session.body).toMatchObject({ account: { email: victim, name: 'Victim' }, organization: { name: 'Victim Co' } });
    const [account] = await accountsWith(victim);
    expect(account!.email_verified_at).not.toBeNull();
    await post('/sessions').send({ email: victim, password: SQUATTER_PASSWORD }).expect(401);
    await post('/sessions').send({ email: victim, password: PASSWORD }).expect(200);
  });
});

describe('password reset', () => {
  it('answers the same whether the email exists; the mailed link sets a new password, signs every other browser out and verifies the email', async () => {
    const account = await signUp(ctx);
    const known = await post('/password-reset').send({ email: account.email.toUpperCase() }).expect(202);
    expectToMatchRouteTable(known);
    const unknownEmail = uniqueEmail('nobody');
    const unknown = await post('/password-reset').send({ email: unknownEmail }).expect(202);
    expect(unknown.body).toEqual(known.body);
    const mail = await ctx.mailbox.arrived(account.email, 2); // the sign-up confirmation, then the reset
    expect(ctx.mailbox.to(unknownEmail)).toEqual([]);

    expect(mail.subject).toBe('Reset your password');
    const token = linkToken(mail, 'reset-password');
    const reset = await post('/password-reset/confirm').send({ token, password: 'a brand new password' }).expect(200);
    expectToMatchRouteTable(reset);
    expect(reset.body.account.id).toBe(account.accountId);
    expect(refreshCookieOf(reset)).toMatch(/^pp_refresh=/);

    expect((await post('/sessions/refresh').set('Cookie', account.cookie).expect(401)).body.code).toBe('invalid_refresh_token');
    await post('/sessions').send({ email: account.email, password: PASSWORD }).expect(401);
    await post('/sessions').send({ email: account.email, password: 'a brand new password' }).expect(200);
    expect((await post('/password-reset/confirm').send({ token, password: 'yet another password' }).expect(404)).body.code).toBe('token_not_found');
  });

  it('lets an account made before verification existed prove its email, after which it may create organizations', async () => {
    const email = uniqueEmail('legacy');
    const id = newId('acc');
    await ctx.db('accounts').insert({ id, email, name: 'Legacy', password_hash: await hashPassword(PASSWORD) });
    const signedIn = await post('/sessions').send({ email, password: PASSWORD }).expect(200);
    const cookie = refreshCookieOf(signedIn)!;
    const refused = await post('/organizations').set('Cookie', cookie).send({ name: 'Legacy Co' }).expect(403);
    expect(refused.body.code).toBe('email_not_verified');

    await post('/password-reset').send({ email }).expect(202);
    const reset = await post('/password-reset/confirm').send({ token: linkToken(await ctx.mailbox.arrived(email), 'reset-password'), password: 'legacy new password' }).expect(200);
    const created = await post('/organizations').set('Cookie', refreshCookieOf(reset)!).send({ name: 'Legacy Co' }).expect(201);
    expect(created.body.organization.name).toBe('Legacy Co');
  });
});

describe('invitations by mail', () => {
  it('mails an invitation for an email; signing up with it makes a verified member at once, with no second mail', async () => {
    const owner = await signUp(ctx, { organization_name: 'Inviting Academy' });
    const invitee = uniqueEmail('invitee');
    const created = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', bearer(owner.accessToken)).send({ role: 'operator', email: invitee }).expect(201);
    expectToMatchRouteTable(created);
    expect(created.body.mailed).toBe(true);
    const invitation = ctx.mailbox.last(invitee);
    expect(invitation.subject).toBe('Ada Lovelace invited you to Inviting Academy');
    const invitationToken = linkToken(invitation, 'invite');

    // A leaked link is useless with another address: refused before anything is mailed.
    const leaked = await post('/signup').send({ email: uniqueEmail('thief'), password: PASSWORD, name: 'Thief', invitation_token: invitationToken }).expect(403);
    expect(leaked.body.code).toBe('invitation_email_mismatch');

    // The mailed invitation proved the address: signing up with its token is the account, verified, joined and
    // signed in at once — no second "confirm your email" mail.
    const joined = await post('/signup').send({ email: invitee, password: PASSWORD, name: 'Grace', invitation_token: invitationToken }).expect(201);
    expectToMatchRouteTable(joined);
    expect(joined.headers['cache-control']).toBe('no-store');
    expect(refreshCookieOf(joined)).toBeDefined();
    expect(joined.body.account.email).toBe(invitee);
    expect(joined.body.organization).toMatchObject({ id: owner.organizationId, role: 'operator' });
    expect(ctx.mailbox.to(invitee).map((mail) => mail.subject)).toEqual(['Ada Lovelace invited you to Inviting Academy']);
    expect(await ctx.db('email_tokens').where({ email: invitee })).toEqual([]);
    const account = await ctx.db('accounts').where({ email: invitee }).first();
    expect(account.email_verified_at).toBeInstanceOf(Date);
    await post('/sessions').send({ email: invitee, password: PASSWORD }).expect(200);
    // The invitation is used: a second sign-up with it is refused, and nothing more is mailed.
    expect((await post('/signup').send({ email: invitee, password: PASSWORD, name: 'Again', invitation_token: invitationToken }).expect(404)).body.code).toBe('invitation_not_found');
    expect(ctx.mailbox.to(invitee)).toHaveLength(1);
  });

  it('a link-only invitation (no email, so nothing mailed) proves no address: the invitee still confirms it by mail', async () => {
    const owner = await signUp(ctx, { organization_name: 'Handing Academy' });
    const invitee = uniqueEmail('handed');
    const created = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', bearer(owner.accessToken)).send({ role: 'member' }).expect(201);
    expect(created.body.mailed).toBe(false);
    await post('/signup').send({ email: invitee, password: PASSWORD, name: 'Grace', invitation_token: created.body.token }).expect(202);
    expect(await ctx.db('accounts').where({ email: invitee })).toEqual([]);
    const joined = await post('/verify-email').send({ token: linkToken(ctx.mailbox.last(invitee), 'verify-email'), password: PASSWORD }).expect(201);
    expect(joined.body.organization).toMatchObject({ id: owner.organizationId, role: 'member' });
  });

  it('a mailed invitation for an address that has an account answers as any sign-up does (202, a mail saying so), making nothing', async () => {
    const owner = await signUp(ctx, { organization_name: 'Busy Academy' });
    const existing = await signUp(ctx, { organization_name: 'Own Co' });
    const created = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', bearer(owner.accessToken)).send({ role: 'member', email: existing.email }).expect(201);
    const before = ctx.mailbox.to(existing.email).length;
    await post('/signup').send({ email: existing.email, password: PASSWORD, name: 'Someone', invitation_token: created.body.token }).expect(202);
    expect(ctx.mailbox.to(existing.email)).toHaveLength(before + 1);
    expect(await ctx.db('memberships').where({ organization_id: owner.organizationId, account_id: existing.accountId })).toEqual([]);
  });

  it('an unverified account cannot accept an invitation for its email', async () => {
    const owner = await signUp(ctx);
    const email = uniqueEmail('unverified');
    await ctx.db('accounts').insert({ id: newId('acc'), email, name: 'Unverified', password_hash: await hashPassword(PASSWORD) });
    const cookie = refreshCookieOf(await post('/sessions').send({ email, password: PASSWORD }).expect(200))!;
    const created = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', bearer(owner.accessToken)).send({ role: 'member', email }).expect(201);
    const res = await post(`/invitations/${created.body.token}/accept`).set('Cookie', cookie).expect(403);
    expect(res.body.code).toBe('email_not_verified');
  });
});

describe('password reset leaks nothing and links die together', () => {
  it('answers a registered address 202 even when mail cannot be sent, as it answers an unknown one', async () => {
    const broken = createTestContext({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const email = uniqueEmail('registered');
      await broken.db('accounts').insert({ id: newId('acc'), email, name: 'Registered', password_hash: await hashPassword(PASSWORD) });
      const ask = (address: string) => request(broken.app).post('/accounts/v1/password-reset').set('Origin', ORIGIN).send({ email: address });
      const known = await ask(email).expect(202);
      const unknown = await ask(uniqueEmail('unknown')).expect(202);
      expect(known.body).toEqual(unknown.body);
    } finally {
      await broken.close();
    }
  });

  it('using one reset link voids every other link of the account', async () => {
    const account = await signUp(ctx);
    await post('/password-reset').send({ email: account.email }).expect(202);
    const older = linkToken(await ctx.mailbox.arrived(account.email, 2), 'reset-password');
    await post('/password-reset').send({ email: account.email }).expect(202);
    const newer = linkToken(await ctx.mailbox.arrived(account.email, 3), 'reset-password');
    expect(newer).not.toBe(older);
    await post('/password-reset/confirm').send({ token: newer, password: 'the newest password' }).expect(200);
    const refused = await post('/password-reset/confirm').send({ token: older, password: 'an attacker password' }).expect(404);
    expect(refused.body.code).toBe('token_not_found');
    await post('/sessions').send({ email: account.email, password: 'the newest password' }).expect(200);
  });
});

describe('without SMTP', () => {
  it('answers 503 mail_unavailable when the SMTP server cannot be reached', async () => {
    const broken = createTestContext({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const res = await request(broken.app).post('/accounts/v1/signup').set('Origin', ORIGIN).send({ email: uniqueEmail('nomail'), password: PASSWORD, name: 'X' }).expect(503);
      expect(res.body.code).toBe('mail_unavailable');
      expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    } finally {
      await broken.close();
    }
  });
});
