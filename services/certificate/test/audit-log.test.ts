import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { signUp, type SignedUp } from './factories/accounts';
import { templateInput } from './factories/templates';
import { expectToMatchRouteTable } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ TRUST_PROXY_HOPS: '1' });
});
afterAll(() => ctx.close());

/** An admin call as `as`, from `address` (the gateway's X-Forwarded-For). */
const admin = (method: 'get' | 'post' | 'patch' | 'delete', path: string, as: SignedUp, address = '203.0.113.7') =>
  request(ctx.app)[method](`/admin/v1${path}`).set('Authorization', `Bearer ${as.accessToken}`).set('X-Forwarded-For', address);

async function team() {
  const owner = await signUp(ctx, { name: 'Ada Lovelace' });
  const invitation = await admin('post', '/invitations', owner).send({ role: 'member' }).expect(201);
  const member = await signUp(ctx, { organization_name: undefined, invitation_token: invitation.body.token, name: 'Grace Hopper' });
  return { owner, member, invitationId: invitation.body.id as string };
}

describe('GET /admin/v1/audit-log', () => {
  it('records key, member, role and template changes with who, when, what and from where; owners read them newest first', async () => {
    const { owner, member, invitationId } = await team();
    const key = await admin('post', '/api-keys', owner, '198.51.100.20').send({ name: 'Issuing robot' }).expect(201);
    await admin('post', `/api-keys/${key.body.id}/rotate`, owner).send({}).expect(200);
    await admin('patch', `/members/${member.accountId}`, owner).send({ role: 'operator' }).expect(200);
    const template = await admin('post', '/templates', owner).send(templateInput()).expect(201);
    await admin('patch', `/templates/${template.body.id}`, owner).send({ name: 'Course completion v2' }).expect(200);
    // Refused changes record nothing.
    await admin('patch', `/members/${member.accountId}`, owner).send({ role: 'nonsense' }).expect(422);

    const res = await admin('get', '/audit-log', owner).expect(200);
    expectToMatchRouteTable(res);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.data.map((entry: { action: string }) => entry.action)).toEqual([
      'template.updated',
      'template.created',
      'member.role_changed',
      'api_key.rotated',
      'api_key.created',
      'member.joined',
      'member.invited',
    ]);
    const [updated, , role, rotated, created, joined, invited] = res.body.data;
    expect(created).toMatchObject({
      actor_id: owner.accountId,
      actor_name: 'Ada Lovelace',
      actor_email: owner.email,
      actor_role: 'owner',
      target_id: key.body.id,
      details: { name: 'Issuing robot' },
      ip_address: '198.51.100.20',
    });
    expect(Date.parse(created.created_at)).not.toBeNaN();
    expect(rotated).toMatchObject({ target_id: key.body.id, ip_address: '203.0.113.7' });
    expect(JSON.stringify(res.body)).not.toContain(key.body.token); // never a secret
    expect(role).toMatchObject({ target_id: member.accountId, details: { role: 'operator' } });
    expect(updated).toMatchObject({ target_id: template.body.id, details: { name: 'Course completion v2' } });
    expect(invited).toMatchObject({ target_id: invitationId, details: { role: 'member' } });
    // Accepting the invitation (here by signing up with it) is the new member's own entry, in the invitation's organization.
    expect(joined).toMatchObject({ action: 'member.joined', actor_id: member.accountId, actor_role: 'member', target_id: member.accountId, details: { role: 'member', invitation_id: invitationId } });

    // Each entry says which data it changed (the dashboard's mode); an update keeps the fields it changed, before and after.
    expect(res.body.data.filter((entry: { action: string }) => entry.action !== 'member.joined').map((entry: { mode: string }) => entry.mode)).toEqual(['live', 'live', 'live', 'live', 'live', 'live']);
    expect(role).toMatchObject({ before: { role: 'member' }, after: { role: 'operator' } });
    expect(updated.before.name).toBe(templateInput().name);
    expect(updated.after).toMatchObject({ name: 'Course completion v2' });
    expect(Object.keys(rotated.after)).toContain('rotated_at');
    expect(rotated.before).toMatchObject({ rotated_at: null });
    expect([created.before, created.after, invited.before, invited.after]).toEqual([null, null, null, null]); // a create has no before
    expect(JSON.stringify(res.body)).not.toMatch(/token_hash|token_hint|password/);

    // Pages, newest first.
    const first = await admin('get', '/audit-log?limit=2', owner).expect(200);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: first.body.data[1].id });
    const second = await admin('get', `/audit-log?limit=2&cursor=${first.body.next_cursor}`, owner).expect(200);
    expect(second.body.data.map((entry: { action: string }) => entry.action)).toEqual(['member.role_changed', 'api_key.rotated']);
  });

  it('records what the route table declares: key revocation and deletion, a withdrawn invitation, a removed member and one who left', async () => {
    const { owner, member } = await team();
    const key = await admin('post', '/api-keys', owner).send({ name: 'Short-lived' }).expect(201);
    // Refused changes record nothing: a member may not revoke keys nor withdraw invitations.
    expect((await admin('post', `/api-keys/${key.body.id}/revoke`, member).expect(403)).body.code).toBe('insufficient_role');
    await admin('post', `/api-keys/${key.body.id}/revoke`, owner).expect(200);
    await admin('delete', `/api-keys/${key.body.id}`, owner).expect(204);
    const withdrawn = await admin('post', '/invitations', owner).send({ role: 'operator' }).expect(201);
    await admin('delete', `/invitations/${withdrawn.body.id}`, member).expect(403);
    await admin('delete', `/invitations/${withdrawn.body.id}`, owner).expect(204);
    const second = await admin('post', '/invitations', owner).send({ role: 'member' }).expect(201);
    const leaver = await signUp(ctx, { organization_name: undefined, invitation_token: second.body.token });
    await admin('delete', `/members/${leaver.accountId}`, leaver).expect(204); // a member leaves
    await admin('delete', `/members/${member.accountId}`, owner).expect(204); // the owner removes another

    const res = await admin('get', '/audit-log', owner).expect(200);
    expect(res.body.data.map((entry: { action: string; target_id: string; actor_id: string }) => [entry.action, entry.target_id, entry.actor_id])).toEqual([
      ['member.removed', member.accountId, owner.accountId],
      ['member.removed', leaver.accountId, leaver.accountId],
      ['member.joined', leaver.accountId, leaver.accountId],
      ['member.invited', second.body.id, owner.accountId],
      ['invitation.deleted', withdrawn.body.id, owner.accountId],
      ['member.invited', withdrawn.body.id, owner.accountId],
      ['api_key.deleted', key.body.id, owner.accountId],
      ['api_key.revoked', key.body.id, owner.accountId],
      ['api_key.created', key.body.id, owner.accountId],
      ['member.joined', member.accountId, member.accountId],
      ['member.invited', expect.stringMatching(/^inv_/), owner.accountId],
    ]);
    expect(res.body.data[1]).toMatchObject({ actor_role: 'member' });
    // A delete keeps the whole object before it; a revoke the fields it changed.
    const byAction = (action: string) => (res.body.data as { action: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[]).find((entry) => entry.action === action)!;
    expect(res.body.data[0]).toMatchObject({ before: { account_id: member.accountId, role: 'member' }, after: null });
    expect(byAction('invitation.deleted')).toMatchObject({ before: { id: withdrawn.body.id, role: 'operator', email: null }, after: null });
    expect(byAction('api_key.revoked')).toMatchObject({ before: { status: 'active', revoked_at: null }, after: { status: 'revoked', revoked_at: expect.any(String) } });
    expect(byAction('api_key.deleted')).toMatchObject({ before: { id: key.body.id, name: 'Short-lived', status: 'revoked', livemode: true }, after: null });
    expect(JSON.stringify(res.body)).not.toMatch(/token_hash|token_hint/);
  });

  it('is for owners only, of their own organization; a bad cursor or limit is 422', async () => {
    const { owner, member } = await team();
    const refused = await admin('get', '/audit-log', member).expect(403);
    expect(refused.body.code).toBe('insufficient_role');
    const stranger = await signUp(ctx);
    await admin('post', '/api-keys', stranger).send({ name: 'Theirs' }).expect(201);
    const mine = await admin('get', '/audit-log', owner).expect(200);
    expect(mine.body.data.every((entry: { organization_id: string }) => entry.organization_id === owner.organizationId)).toBe(true);
    expect(mine.body.data.map((entry: { action: string }) => entry.action)).toEqual(['member.joined', 'member.invited']);
    expect((await admin('get', '/audit-log?cursor=key_1', owner).expect(422)).body.code).toBe('validation_failed');
    expect((await admin('get', '/audit-log?limit=0', owner).expect(422)).body.code).toBe('validation_failed');
  });
});
