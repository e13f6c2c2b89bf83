import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { ORIGIN, PASSWORD, refreshCookieOf, signUp, uniqueEmail, type SignedUp } from './factories/accounts';
import { expectToMatchRouteTable } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL: 'https://platform.example' });
});
afterAll(() => ctx.close());

const bearer = (account: { accessToken: string | null }) => `Bearer ${account.accessToken}`;
const admin = (method: 'get' | 'post' | 'patch' | 'delete', path: string, as: { accessToken: string | null }) => request(ctx.app)[method](`/admin/v1${path}`).set('Authorization', bearer(as));

async function invite(owner: SignedUp, body: Record<string, unknown> = { role: 'member' }) {
  const res = await admin('post', '/invitations', owner).send(body).expect(201);
  return res.body as { id: string; token: string; invite_url: string; role: string; email: string | null; expires_at: string };
}

/** An owner and a member who joined by signing up with an invitation link. */
async function team(role = 'member') {
  const owner = await signUp(ctx);
  const invitation = await invite(owner, { role });
  const member = await signUp(ctx, { organization_name: undefined, invitation_token: invitation.token, name: 'Grace Hopper' });
  return { owner, member };
}

describe('invitations', () => {
  it('an owner creates a link; anyone can read what it offers; signing up with it joins with the role, once', async () => {
    const owner = await signUp(ctx);
    const created = await admin('post', '/invitations', owner).send({ role: 'operator' }).expect(201);
    expectToMatchRouteTable(created);
    expect(created.body.invite_url).toBe(`https://platform.example/dashboard/invite/${created.body.token}`);
    expect(created.body.id).toMatch(/^inv_/);
    const days = (new Date(created.body.expires_at).getTime() - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const stored = await ctx.db('invitations').where({ id: created.body.id }).first();
    expect(stored.token_hash).not.toContain(created.body.token);

    const preview = await request(ctx.app).get(`/accounts/v1/invitations/${created.body.token}`).expect(200);
    expectToMatchRouteTable(preview);
    expect(preview.body).toEqual({ organization_name: 'Analytical Academy', role: 'operator', expires_at: created.body.expires_at });

    const pending = await admin('get', '/invitations', owner).expect(200);
    expectToMatchRouteTable(pending);
    expect(pending.body.data).toEqual([expect.objectContaining({ id: created.body.id, role: 'operator', email: null })]);
    expect(pending.body.data[0].token).toBeUndefined();

    const joined = await signUp(ctx, { organization_name: undefined, invitation_token: created.body.token });
    expect(joined.body.organization).toEqual({ id: owner.organizationId, name: 'Analytical Academy', role: 'operator' });
    expect((await admin('get', '/invitations', owner).expect(200)).body.data).toEqual([]);
    // Used: a second person gets 404 and no account.
    const email = uniqueEmail('late');
    const again = await request(ctx.app).post('/accounts/v1/signup').set('Origin', ORIGIN).send({ email, password: PASSWORD, name: 'Late', invitation_token: created.body.token }).expect(404);
    expect(again.body.code).toBe('invitation_not_found');
    expect(await ctx.db('accounts').where({ email }).first()).toBeUndefined();
    expect((await request(ctx.app).get(`/accounts/v1/invitations/${created.body.token}`).expect(404)).body.code).toBe('invitation_not_found');
  });

  it('a signed-in account accepts an invitation and switches to that organization; an email-bound link refuses other emails', async () => {
    const owner = await signUp(ctx);
    const other = await signUp(ctx);
    const bound = await invite(owner, { role: 'member', email: uniqueEmail('someone') });
    const refused = await request(ctx.app).post(`/accounts/v1/invitations/${bound.token}/accept`).set('Origin', ORIGIN).set('Authorization', bearer(other)).expect(403);
    expect(refused.body.code).toBe('invitation_email_mismatch');

    const open = await invite(owner, { role: 'member', email: other.email.toUpperCase() });
    const accepted = await request(ctx.app).post(`/accounts/v1/invitations/${open.token}/accept`).set('Origin', ORIGIN).set('Authorization', bearer(other)).set('Cookie', other.cookie).expect(200);
    expectToMatchRouteTable(accepted);
    expect(accepted.body.organization).toEqual({ id: owner.organizationId, name: 'Analytical Academy', role: 'member' });
    expect(accepted.body.memberships).toHaveLength(2);
    const refreshed = await request(ctx.app).post('/accounts/v1/sessions/refresh').set('Origin', ORIGIN).set('Cookie', other.cookie).expect(200);
    expect(refreshed.body.organization.id).toBe(owner.organizationId);
  });

  it('only owners create and withdraw invitations; a withdrawn link is 404; bad input is 422', async () => {
    const { owner, member } = await team();
    expect((await admin('post', '/invitations', member).send({ role: 'member' }).expect(403)).body.code).toBe('insufficient_role');
    expect((await admin('post', '/invitations', owner).send({ role: 'platform_operator' }).expect(422)).body.code).toBe('validation_failed');
    expect((await admin('post', '/invitations', owner).send({ role: 'member', email: 'nope' }).expect(422)).body.code).toBe('validation_failed');
    const invitation = await invite(owner);
    await admin('delete', `/invitations/${invitation.id}`, member).expect(403);
    await admin('delete', `/invitations/${invitation.id}`, owner).expect(204);
    await admin('delete', `/invitations/${invitation.id}`, owner).expect(404);
    await request(ctx.app).get(`/accounts/v1/invitations/${invitation.token}`).expect(404);
    // Another organization's invitation is not found.
    const stranger = await signUp(ctx);
    const theirs = await invite(stranger);
    await admin('delete', `/invitations/${theirs.id}`, owner).expect(404);
    await request(ctx.app).get(`/accounts/v1/invitations/${theirs.token}`).expect(200);
  });
});

describe('members', () => {
  it('everyone in the organization lists its members; another organization sees none of them', async () => {
    const { owner, member } = await team();
    const res = await admin('get', '/members', member).expect(200);
    expectToMatchRouteTable(res);
    expect(res.body.data).toEqual([
      expect.objectContaining({ account_id: owner.accountId, email: owner.email, role: 'owner' }),
      expect.objectContaining({ account_id: member.accountId, name: 'Grace Hopper', role: 'member' }),
    ]);
    const stranger = await signUp(ctx);
    expect((await admin('get', '/members', stranger).expect(200)).body.data.map((m: { account_id: string }) => m.account_id)).toEqual([stranger.accountId]);
    await admin('patch', `/members/${member.accountId}`, stranger).send({ role: 'operator' }).expect(404);
  });

  it('an owner changes a role; it reaches the member at the next refresh; members may not change roles', async () => {
    const { owner, member } = await team();
    expect((await admin('patch', `/members/${owner.accountId}`, member).send({ role: 'member' }).expect(403)).body.code).toBe('insufficient_role');
    const changed = await admin('patch', `/members/${member.accountId}`, owner).send({ role: 'owner' }).expect(200);
    expectToMatchRouteTable(changed);
    expect(changed.body).toMatchObject({ account_id: member.accountId, role: 'owner' });
    const refreshed = await request(ctx.app).post('/accounts/v1/sessions/refresh').set('Origin', ORIGIN).set('Cookie', member.cookie).expect(200);
    expect(refreshed.body.organization.role).toBe('owner');
    await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', `Bearer ${refreshed.body.access_token}`).send({ name: 'now allowed' }).expect(201);
    expect((await admin('patch', `/members/${member.accountId}`, owner).send({ role: 'boss' }).expect(422)).body.code).toBe('validation_failed');
    await admin('patch', '/members/acc_unknown', owner).send({ role: 'member' }).expect(404);
  });

  it('refuses to demote or remove the last owner (409 last_owner) and changes nothing', async () => {
    const { owner, member } = await team();
    const demote = await admin('patch', `/members/${owner.accountId}`, owner).send({ role: 'member' }).expect(409);
    expect(demote.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(demote.body.code).toBe('last_owner');
    expect((await admin('delete', `/members/${owner.accountId}`, owner).expect(409)).body.code).toBe('last_owner');
    const roles = await ctx.db('memberships').where({ organization_id: owner.organizationId }).orderBy('created_at').pluck('role');
    expect(roles).toEqual(['owner', 'member']);
    expect(member.accountId).toMatch(/^acc_/);
  });

  it('removing a member revokes their refresh sessions there; a member may leave but not remove others', async () => {
    const { owner, member } = await team();
    const third = await signUp(ctx, { organization_name: undefined, invitation_token: (await invite(owner)).token });
    await admin('delete', `/members/${third.accountId}`, member).expect(403);
    await admin('delete', `/members/${member.accountId}`, owner).expect(204);
    expect((await request(ctx.app).post('/accounts/v1/sessions/refresh').set('Origin', ORIGIN).set('Cookie', member.cookie).expect(401)).body.code).toBe('invalid_refresh_token');
    // Signing in again: the account still exists, without that organization.
    const again = await request(ctx.app).post('/accounts/v1/sessions').set('Origin', ORIGIN).send({ email: member.email, password: PASSWORD }).expect(200);
    expect(again.body).toMatchObject({ access_token: null, organization: null, memberships: [] });
    expect(refreshCookieOf(again)).toBeDefined();
    // Self-leave.
    await admin('delete', `/members/${third.accountId}`, third).expect(204);
    expect((await admin('get', '/members', owner).expect(200)).body.data.map((m: { account_id: string }) => m.account_id)).toEqual([owner.accountId]);
  });

  it('two owners removing each other at the same moment leave exactly one owner', async () => {
    const { owner, member } = await team('owner');
    const [a, b] = await Promise.all([
      admin('delete', `/members/${member.accountId}`, owner),
      admin('delete', `/members/${owner.accountId}`, member),
    ]);
    expect([a.status, b.status].sort()).toEqual([204, 409]);
    const owners = await ctx.db('memberships').where({ organization_id: owner.organizationId, role: 'owner' });
    expect(owners).toHaveLength(1);
  });
});

describe('expiry', () => {
  it('an expired invitation is 404 and joins nobody', async () => {
    const owner = await signUp(ctx);
    const invitation = await invite(owner);
    await ctx.db('invitations').where({ id: invitation.id }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    expect((await request(ctx.app).get(`/accounts/v1/invitations/${invitation.token}`).expect(404)).body.code).toBe('invitation_not_found');
    expect((await admin('get', '/invitations', owner).expect(200)).body.data).toEqual([]);
    const joiner = await signUp(ctx);
    await request(ctx.app).post(`/accounts/v1/invitations/${invitation.token}/accept`).set('Origin', ORIGIN).set('Authorization', bearer(joiner)).expect(404);
    expect(await ctx.db('memberships').where({ organization_id: owner.organizationId, account_id: joiner.accountId }).first()).toBeUndefined();
  });

  it('an expired refresh session is refused with invalid_refresh_token', async () => {
    const account = await signUp(ctx);
    await ctx.db('refresh_sessions').where({ account_id: account.accountId }).update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    const res = await request(ctx.app).post('/accounts/v1/sessions/refresh').set('Origin', ORIGIN).set('Cookie', account.cookie).expect(401);
    expect(res.body.code).toBe('invalid_refresh_token');
  });

  it('two refreshes racing with one cookie: one rotates, the other is reuse and signs the family out', async () => {
    const account = await signUp(ctx);
    const refresh = (cookie: string) => request(ctx.app).post('/accounts/v1/sessions/refresh').set('Origin', ORIGIN).set('Cookie', cookie);
    const [a, b] = await Promise.all([refresh(account.cookie), refresh(account.cookie)]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    const winner = a.status === 200 ? a : b;
    expect((a.status === 401 ? a : b).body.code).toBe('refresh_token_reused');
    await refresh(refreshCookieOf(winner)!).expect(401);
  });
});

describe('invitation mails and their daily cap', () => {
  let capped: TestContext;
  beforeAll(() => {
    capped = createTestContext({ INVITATIONS_PER_ORGANIZATION_PER_DAY: '2' });
  });
  afterAll(() => capped.close());
  const inviteIn = (context: TestContext, owner: SignedUp, body: object) => request(context.app).post('/admin/v1/invitations').set('Authorization', bearer(owner)).send(body);

  it('names who invited, from the stored account and organization, never from the token', async () => {
    const owner = await signUp(capped, { name: 'Ada Lovelace', organization_name: 'Analytical Academy' });
    const invitee = uniqueEmail('invitee');
    await inviteIn(capped, owner, { role: 'member', email: invitee }).expect(201);
    const mail = capped.mailbox.last(invitee);
    expect(mail.subject).toBe('Ada Lovelace invited you to Analytical Academy');
    expect(mail.text).toContain(`Ada Lovelace (${owner.email}) invited you to join Analytical Academy on the Partner Platform.`);
  });

  it('refuses more than the daily number of invitations of one organization with 429 and Retry-After; others are not held back', async () => {
    const owner = await signUp(capped);
    await inviteIn(capped, owner, { role: 'member' }).expect(201);
    await inviteIn(capped, owner, { role: 'member', email: uniqueEmail('second') }).expect(201);
    const refused = await inviteIn(capped, owner, { role: 'member', email: uniqueEmail('third') }).expect(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86000);
    expectToMatchRouteTable(refused);
    expect(await capped.db('invitations').where({ organization_id: owner.organizationId }).count({ n: '*' })).toEqual([{ n: '2' }]);
    const other = await signUp(capped);
    await inviteIn(capped, other, { role: 'member' }).expect(201);
  });
});

describe('names with control characters', () => {
  it.each([
    ['a line break', 'Academy\r\nBcc: victim@example.com'],
    ['a right-to-left override', 'Academy \u202Egnp.exe'],
  ])('an organization name with %s is a 422 at sign-up and on create, and nothing is made', async (_label, name) => {
    const email = uniqueEmail('ctl');
    const signup = await request(ctx.app).post('/accounts/v1/signup').set('Origin', ORIGIN).send({ email, password: PASSWORD, name: 'Ada', organization_name: name }).expect(422);
    expect(signup.body.details).toEqual([expect.objectContaining({ path: 'organization_name', message: 'must not contain control characters or line breaks' })]);
    expect(ctx.mailbox.to(email)).toHaveLength(0);
    const owner = await signUp(ctx);
    const created = await request(ctx.app).post('/accounts/v1/organizations').set('Origin', ORIGIN).set('Authorization', bearer(owner)).send({ name }).expect(422);
    expect(created.body.details[0].path).toBe('name');
    expect(await ctx.db('memberships').where({ account_id: owner.accountId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});
