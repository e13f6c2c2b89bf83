import type { Knex } from '@platform/service-kit/db';
import { createTestContext, type PartnerApi, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { offset, onlineDriver, randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

async function newPartner(scopes?: string[]): Promise<PartnerApi> {
  return partnerApi(ctx, (await createPartnerKey(ctx, { scopes })).token);
}

/** Three rides of one partner, created one after another (oldest first). */
async function threeRides(partner: PartnerApi): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await partner.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body.id);
  return ids;
}

/** Pins each job's creation time (oldest first, one hour apart from `start`) so window filters are exact. */
async function setCreatedAt(table: string, ids: string[], start: string): Promise<Date[]> {
  const times = ids.map((_, i) => new Date(Date.parse(start) + i * 3_600_000));
  for (const [i, id] of ids.entries()) await ctx.db(table).where({ id }).update({ created_at: times[i] });
  return times;
}

describe('GET /api/v1/rides', () => {
  it('shows every ride of a page as GET shows it: each one\'s driver and live position', async () => {
    const partner = await newPartner();
    const centre = randomCentre();
    const rideIds: string[] = [];
    const drivers = [];
    for (const [i, east] of [0, 5000].entries()) {
      const pickup = offset(centre, 0, east);
      const driver = await onlineDriver(ctx, offset(pickup, 200 + i * 50, 0));
      const ride = await partner.post('/api/v1/rides', rideBody(pickup)).expect(201);
      const [offer] = await driver.app.offers();
      const accepted = await driver.app.post(`/offers/${offer!.id}/accept`).expect(200);
      // The accepted ride (and its event) shows the position the driver reported before accepting.
      expect(accepted.body.vehicle_location).toMatchObject(offset(pickup, 200 + i * 50, 0));
      rideIds.push(ride.body.id as string);
      drivers.push(driver);
    }
    await drivers[0]!.app.post('/location', { ...offset(centre, 100, 100), heading: 10, speed_kph: 30 }).expect(200);
    const accepted = await ctx.db('outbox_events').where({ object_id: rideIds[1], type: 'ride.accepted' }).first();
    expect(accepted.body.data.vehicle_location).toMatchObject(offset(centre, 250, 5000));

    const listed = await partner.get('/api/v1/rides').expect(200);
    const one = async (id: string) => (await partner.get(`/api/v1/rides/${id}`).expect(200)).body;
    expect(listed.body.data).toEqual([await one(rideIds[1]!), await one(rideIds[0]!)]);
    expect(listed.body.data[1]).toMatchObject({ driver: { id: drivers[0]!.id }, vehicle_location: { ...offset(centre, 100, 100), heading: 10 } });
    expect(listed.body.data[0]).toMatchObject({ driver: { id: drivers[1]!.id } });
  });

  it('pages the partner’s rides newest first and never shows another partner’s', async () => {
    const partner = await newPartner();
    const other = await newPartner();
    const [first, second, third] = await threeRides(partner);
    await setCreatedAt('rides', [first!, second!, third!], '2026-11-20T10:00:00Z');
    const foreign = (await other.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body.id;

    const page1 = await partner.get('/api/v1/rides?limit=2').expect(200);
    expect(page1.body.data.map((r: { id: string }) => r.id)).toEqual([third, second]);
    expect(page1.body).toMatchObject({ has_more: true, next_cursor: second });
    expect(page1.body.data[0]).toMatchObject({ id: third, status: 'pending', tier: 'economy', passenger: { name: 'Ada Obi' } });

    const page2 = await partner.get(`/api/v1/rides?limit=2&cursor=${page1.body.next_cursor}`).expect(200);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: first })], has_more: false, next_cursor: null });

    const theirs = await other.get('/api/v1/rides').expect(200);
    expect(theirs.body.data.map((r: { id: string }) => r.id)).toEqual([foreign]);
  });

  it('filters by status and by a creation window (both bounds exclusive)', async () => {
    const partner = await newPartner();
    const [first, second, third] = await threeRides(partner);
    await setCreatedAt('rides', [first!, second!, third!], '2026-11-21T10:00:00Z');
    await partner.post(`/api/v1/rides/${second}/cancel`).expect(200);

    const cancelled = await partner.get('/api/v1/rides?status=cancelled').expect(200);
    expect(cancelled.body.data.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[second, 'cancelled']]);

    const window = await partner.get('/api/v1/rides?created_after=2026-11-21T10:00:00Z&created_before=2026-11-21T12:00:00Z').expect(200);
    expect(window.body.data.map((r: { id: string }) => r.id)).toEqual([second]);

    const since = await partner.get(`/api/v1/rides?created_after=${encodeURIComponent('2026-11-21T11:30:00+01:00')}`).expect(200);
    expect(since.body.data.map((r: { id: string }) => r.id)).toEqual([third, second]);
  });

  it('answers 422 for a bad status, date, limit or cursor, including another partner’s ride as cursor', async () => {
    const partner = await newPartner();
    const other = await newPartner();
    const foreign = (await other.post('/api/v1/rides', rideBody(randomCentre())).expect(201)).body.id;

    for (const query of ['status=delivered', 'created_after=yesterday', 'limit=0', 'limit=101', 'cursor=dlv_nope', `cursor=${foreign}`]) {
      const res = await partner.get(`/api/v1/rides?${query}`).expect(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('needs rides:read', async () => {
    const writer = await newPartner(['rides:write']);
    const res = await writer.get('/api/v1/rides').expect(403);
    expect(res.body.code).toBe('insufficient_scope');
  });
});

describe('GET /api/v1/deliveries', () => {
  it('pages the partner’s deliveries newest first, by status, with deliveries:read', async () => {
    const partner = await newPartner();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await partner.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body.id);
    await setCreatedAt('deliveries', ids, '2026-11-22T10:00:00Z');
    await partner.post(`/api/v1/deliveries/${ids[0]}/cancel`).expect(200);

    const page1 = await partner.get('/api/v1/deliveries?limit=2').expect(200);
    expect(page1.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
    const page2 = await partner.get(`/api/v1/deliveries?limit=2&cursor=${ids[1]}`).expect(200);
    expect(page2.body).toMatchObject({ data: [expect.objectContaining({ id: ids[0], status: 'cancelled' })], has_more: false, next_cursor: null });

    const cancelled = await partner.get('/api/v1/deliveries?status=cancelled').expect(200);
    expect(cancelled.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    await partner.get('/api/v1/deliveries?status=no_drivers_available').expect(422);

    const rideOnly = await newPartner(['rides:read']);
    await rideOnly.get('/api/v1/deliveries').expect(403);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** Copies of `template` for `partners` other partners, `perPartner` each, created a minute apart. */
async function fillTable(table: string, template: Record<string, unknown>, partners: number, perPartner: number): Promise<void> {
  const prefix = table === 'rides' ? 'ride' : 'dlv';
  const statuses = table === 'rides' ? ['completed', 'cancelled', 'pending'] : ['delivered', 'cancelled', 'pending'];
  const rows = [];
  // Each delivery's tracking token is its own (a unique column), and its timeline is JSON: the copies get neither.
  const { tracking_token_hash: _token, status_timeline: _timeline, ...copied } = template;
  for (let p = 0; p < partners; p++) {
    for (let i = 0; i < perPartner; i++) {
      rows.push({ ...copied, id: `${prefix}_plan${p}x${i}`, partner_id: `ptn_plan${p}`, status: statuses[i % 3], created_at: new Date(Date.now() - (p * perPartner + i) * 60_000) });
    }
  }
  await ctx.db.batchInsert(table, rows, 250);
  await ctx.db.raw(`analyze ${table}`);
}

/** The SQL of the list query the app runs for `path`, as Postgres would plan it. */
async function planOf(partner: PartnerApi, path: string, table: string): Promise<PlanNode[]> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) => {
    if (query.sql.includes(`from "${table}"`) && query.sql.includes('order by')) seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  };
  (ctx.db as Knex).on('query', listen);
  try {
    await partner.get(path).expect(200);
  } finally {
    (ctx.db as Knex).removeListener('query', listen);
  }
  expect(seen).toHaveLength(1);
  const sql = seen[0]!.sql.replace(/\$\d+/g, '?');
  const result = await ctx.db.raw(`explain (format json) ${sql}`, seen[0]!.bindings as Knex.RawBinding[]);
  return nodesOf(result.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
}

describe('the list queries use the partner indexes', () => {
  it.each([
    ['rides', '/api/v1/rides', () => rideBody(randomCentre())],
    ['deliveries', '/api/v1/deliveries', () => deliveryBody(randomCentre())],
  ])('%s: an index scan of the newest-first index, no sequential scan, with thousands of rows analysed', async (table, path, body) => {
    const partner = await newPartner();
    const created = (await partner.post(path, body()).expect(201)).body.id as string;
    const template = (await ctx.db(table).where({ id: created }).first()) as Record<string, unknown>;
    await fillTable(table, template, 40, 100);

    for (const [query, index] of [
      ['?limit=20', `${table}_partner_newest_index`],
      ['?limit=20&status=cancelled', `${table}_partner_status_newest_index`],
      [`?limit=20&cursor=${created}`, `${table}_partner_newest_index`],
    ] as const) {
      const nodes = await planOf(partner, `${path}${query}`, table);
      const scans = nodes.filter((node) => node['Relation Name'] === table);
      expect(scans.map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(scans.find((node) => /Index Scan/.test(node['Node Type']))?.['Index Name']).toBe(index);
    }
  });
});
