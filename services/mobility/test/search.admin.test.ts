/**
 * The dashboard's command palette searches the organization's mobility objects (`GET /admin/v1/search`): rides and
 * deliveries by id, event passes by code (any case), webhook endpoints by id or URL; exact or prefix matches, a few of
 * each kind, within the token's organization and mode only.
 */
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, newAdmin, type AdminIdentity } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { ORGANIZER_SCOPES, programWithPasses } from './factories/event-passes';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const search = (who: AdminIdentity, query: string) => request(ctx.app).get(`/admin/v1/search?${query}`).set('Authorization', `Bearer ${adminToken(ctx, who)}`);

interface Result {
  kind: string;
  id: string;
  label: string;
  detail: string | null;
  program_id?: string | null;
}

describe('GET /admin/v1/search (mobility)', () => {
  it("finds the organization's rides, deliveries, passes and endpoints by exact or prefix match, never another organization's or mode's", async () => {
    const live = await createPartnerKey(ctx, { scopes: [...ORGANIZER_SCOPES, 'deliveries:write'] });
    const test = await createPartnerKey(ctx, { owner: live.owner, mode: 'test' });
    const api = partnerApi(ctx, live.token);
    const centre = randomCentre();
    const ride = (await api.post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const delivery = (await api.post('/api/v1/deliveries', deliveryBody(centre)).expect(201)).body;
    const testRide = (await partnerApi(ctx, test.token).post('/api/v1/rides', rideBody(centre)).expect(201)).body;
    const { program, passes } = await programWithPasses(api, centre, 2);
    const endpoint = (await api.post('/api/v1/webhooks', { url: 'https://93.184.215.14/hooks/search-me' }).expect(201)).body;
    const member = newAdmin({ org: live.owner.org, role: 'member' });

    const exact = await search(member, `q=${ride.id}`).expect(200);
    expect(exact.body).toEqual({ query: ride.id, data: [{ kind: 'ride', id: ride.id, label: ride.id, detail: expect.stringMatching(/^Ride, /) }] });

    const byPrefix = (await search(member, `q=${delivery.id.slice(0, -4)}`).expect(200)).body.data as Result[];
    expect(byPrefix).toEqual([expect.objectContaining({ kind: 'delivery', id: delivery.id })]);

    // A pass code in lower case, and its start.
    const code = passes[0]!.code as string;
    const pass = (await search(member, `q=${encodeURIComponent(code.toLowerCase())}`).expect(200)).body.data as Result[];
    expect(pass).toEqual([{ kind: 'event_pass', id: passes[0]!.id, label: code, detail: expect.stringContaining('Test Fest'), program_id: program.id }]);
    const both = (await search(member, `q=${encodeURIComponent(code.slice(0, 4))}`).expect(200)).body.data as Result[];
    expect(both.filter((r) => r.kind === 'event_pass').map((r) => r.label).sort()).toEqual(passes.map((p) => p.code).sort());

    const byUrl = (await search(member, `q=${encodeURIComponent('https://93.184.215.14/hooks/search')}`).expect(200)).body.data as Result[];
    expect(byUrl).toEqual([expect.objectContaining({ kind: 'webhook_endpoint', id: endpoint.id, label: endpoint.url })]);

    // `limit` caps each kind; `%` and `_` are matched literally.
    expect(((await search(member, `q=${encodeURIComponent(code.slice(0, 4))}&limit=1`).expect(200)).body.data as Result[]).filter((r) => r.kind === 'event_pass')).toHaveLength(1);
    expect((await search(member, 'q=%25%25').expect(200)).body.data).toEqual([]);
    expect((await search(member, 'q=ride__').expect(200)).body.data).toEqual([]);

    // The test mode sees its own ride, not the live one; the live mode not the test one.
    expect(((await search(member, `q=${testRide.id}&mode=test`).expect(200)).body.data as Result[]).map((r) => r.id)).toEqual([testRide.id]);
    expect((await search(member, `q=${testRide.id}`).expect(200)).body.data).toEqual([]);
    expect((await search(member, `q=${ride.id}&mode=test`).expect(200)).body.data).toEqual([]);

    // Another organization finds nothing of these.
    const stranger = newAdmin({ org: `org_stranger_${Date.now()}`, role: 'owner' });
    for (const q of [ride.id, delivery.id, code, endpoint.id]) {
      expect((await search(stranger, `q=${encodeURIComponent(q)}`).expect(200)).body.data).toEqual([]);
    }
  });

  it('refuses a query shorter than 2 characters, an unknown parameter and a missing token', async () => {
    const who = newAdmin({ role: 'member' });
    const short = await search(who, 'q=r').expect(422);
    expect(short.headers['content-type']).toMatch(/problem\+json/);
    expect(short.body.details).toEqual([expect.objectContaining({ path: 'q' })]);
    await search(who, '').expect(422);
    await search(who, 'q=ride_1&limit=50').expect(422);
    await search(who, 'q=ride_1&sort=asc').expect(422);
    await request(ctx.app).get('/admin/v1/search?q=ride_1').expect(401);
  });
});
