/** The dashboard's event pass actions through the admin API: revoke one pass by its id; live only; audited. */
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, newAdmin, type AdminIdentity } from './factories/auth';
import { randomCentre } from './factories/fleet';
import { organizer, programBody, rideToVenue } from './factories/event-passes';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const admin = (who: AdminIdentity) => ({
  get: (path: string) => request(ctx.app).get(`/admin/v1${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`),
  post: (path: string, body?: object) => {
    const req = request(ctx.app).post(`/admin/v1${path}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`);
    return body ? req.send(body) : req;
  },
});

describe('POST /admin/v1/event-pass-programs/{id}/passes/{pass_id}/revoke', () => {
  it('revokes one pass by id for owners and operators; the pass then takes no ride; twice answers the same', async () => {
    const venue = randomCentre();
    const { api, owner } = await organizer(ctx);
    const program = (await admin(owner).post('/event-pass-programs', programBody(venue)).expect(201)).body;
    const [pass, kept] = (await admin(owner).post(`/event-pass-programs/${program.id}/passes`, { attendees: [{ reference: 'T-1' }, { reference: 'T-2' }] }).expect(201)).body.data;

    await admin(newAdmin({ org: owner.org, role: 'member' })).post(`/event-pass-programs/${program.id}/passes/${pass.id}/revoke`).expect(403);
    const revoked = await admin(newAdmin({ org: owner.org, role: 'operator' })).post(`/event-pass-programs/${program.id}/passes/${pass.id}/revoke`).expect(200);
    expect(revoked.body).toMatchObject({ id: pass.id, code: pass.code, status: 'revoked', rides_left: 0, revoked_at: expect.any(String) });
    const twice = await admin(owner).post(`/event-pass-programs/${program.id}/passes/${pass.id}/revoke`).expect(200);
    expect(twice.body.revoked_at).toBe(revoked.body.revoked_at);

    const refused = await api.post('/api/v1/rides', rideToVenue(venue, pass.code)).expect(422);
    expect(refused.body.code).toBe('event_pass_revoked');
    await api.post('/api/v1/rides', rideToVenue(venue, kept.code)).expect(201);
    const listed = (await admin(owner).get(`/event-pass-programs/${program.id}/passes`).expect(200)).body.data;
    expect(listed.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual(expect.arrayContaining([[pass.id, 'revoked'], [kept.id, 'active']]));
  });

  it("answers 404 for another organization's pass, a pass of another program, or an id of another shape", async () => {
    const venue = randomCentre();
    const { owner } = await organizer(ctx);
    const first = (await admin(owner).post('/event-pass-programs', programBody(venue)).expect(201)).body;
    const second = (await admin(owner).post('/event-pass-programs', programBody(venue)).expect(201)).body;
    const [pass] = (await admin(owner).post(`/event-pass-programs/${first.id}/passes`, { count: 1 }).expect(201)).body.data;
    await admin(owner).post(`/event-pass-programs/${second.id}/passes/${pass.id}/revoke`).expect(404);
    await admin(newAdmin()).post(`/event-pass-programs/${first.id}/passes/${pass.id}/revoke`).expect(404);
    const shape = await admin(owner).post(`/event-pass-programs/${first.id}/passes/not-a-pass/revoke`).expect(404);
    expect(shape.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});

describe('event passes from the dashboard are live only', () => {
  it('refuses a test-mode session (?mode=test, ?livemode=false) with 403 test_mode_not_supported, reads and changes alike, and acts on nothing', async () => {
    const venue = randomCentre();
    const { owner } = await organizer(ctx);
    const live = (await admin(owner).post('/event-pass-programs', programBody(venue)).expect(201)).body;

    const created = await admin(owner).post('/event-pass-programs?mode=test', programBody(venue)).expect(403);
    expect(created.body.code).toBe('test_mode_not_supported');
    expect((await admin(owner).get('/event-pass-programs?livemode=false').expect(403)).body.code).toBe('test_mode_not_supported');
    expect((await admin(owner).get(`/event-pass-programs/${live.id}?mode=test`).expect(403)).body.code).toBe('test_mode_not_supported');
    expect((await admin(owner).post(`/event-pass-programs/${live.id}/passes?mode=test`, { count: 1 }).expect(403)).body.code).toBe('test_mode_not_supported');
    expect((await admin(owner).post(`/event-pass-programs/${live.id}/close?mode=test`).expect(403)).body.code).toBe('test_mode_not_supported');

    // Nothing was made or changed: the one live program, still open, without passes.
    expect((await admin(owner).get('/event-pass-programs').expect(200)).body.data.map((p: { id: string }) => p.id)).toEqual([live.id]);
    expect((await admin(owner).get(`/event-pass-programs/${live.id}?mode=live`).expect(200)).body.status).toBe('open');
    expect((await admin(owner).get(`/event-pass-programs/${live.id}/passes`).expect(200)).body.data).toEqual([]);
  });
});

describe('the audit log of event pass changes', () => {
  it('records program creation and closing and pass issuing and revoking, with who and what', async () => {
    const venue = randomCentre();
    const { owner } = await organizer(ctx);
    const operator = newAdmin({ org: owner.org, role: 'operator' });
    const program = (await admin(operator).post('/event-pass-programs', programBody(venue)).expect(201)).body;
    const [pass] = (await admin(operator).post(`/event-pass-programs/${program.id}/passes`, { count: 2 }).expect(201)).body.data;
    await admin(operator).post(`/event-pass-programs/${program.id}/passes/${pass.id}/revoke`).expect(200);
    await admin(operator).post(`/event-pass-programs/${program.id}/close`).expect(200);
    await admin(newAdmin({ org: owner.org, role: 'member' })).post(`/event-pass-programs/${program.id}/close`).expect(403); // refused: nothing recorded

    const entries = (await admin(owner).get('/audit-log').expect(200)).body.data as { action: string; target_id: string; actor_id: string; details: object }[];
    expect(entries.map((entry) => [entry.action, entry.target_id])).toEqual([
      ['event_pass_program.closed', program.id],
      ['event_pass.revoked', pass.id],
      ['event_pass.issued', program.id],
      ['event_pass_program.created', program.id],
      ['api_key.created', expect.stringMatching(/^key_/)], // the organizer's key, made by its owner
    ]);
    expect(entries.slice(0, 4).every((entry) => entry.actor_id === operator.sub)).toBe(true);
    expect(entries[2]!.details).toEqual({ count: 2 });
    expect(entries[3]!.details).toEqual({ name: 'Test Fest' });
    // Live data (event passes have no test mode here), and what the revoke and the close changed, before and after.
    const full = entries as unknown as { mode: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[];
    expect(full.slice(0, 4).map((entry) => entry.mode)).toEqual(['live', 'live', 'live', 'live']);
    expect(full[0]).toMatchObject({ before: { status: 'open', closed_at: null }, after: { status: 'closed', closed_at: expect.any(String) } });
    expect(full[1]).toMatchObject({ before: { status: 'active', revoked_at: null }, after: { status: 'revoked', revoked_at: expect.any(String) } });
    expect([full[2]!.before, full[3]!.after]).toEqual([null, null]); // creates have no before and after
    expect(JSON.stringify(entries)).not.toContain(pass.code); // never a pass's code
  });
});
