import request from 'supertest';
import type { RouteSpec } from '@platform/service-kit/route-table';
import { MOBILITY_SCHEMA } from '../src/config';
import { mobilityRouteTable } from '../src/route-table';
import { adminToken, createPartnerKey, type AdminIdentity } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { programBody, programWithPasses } from './factories/event-passes';
import { randomCentre } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';
import { createTestContext } from './helpers/context';
import { label, schemesOf } from './helpers/route-entries';

/**
 * The data an operation serves: event passes have no test data (`mode: 'live-only'`: a test key, or an admin session
 * with `?mode=test`, gets 403 `test_mode_not_supported`) and the sandbox moves test jobs only (`mode: 'test-only'`: a
 * live key gets 403 `livemode_key_not_allowed`). Refused means refused before anything happens: the partner's rows
 * (every table with its `partner_id` or `organization_id`, the audit log too) read the same after the request.
 */
const ctx = createTestContext();
afterAll(() => ctx.close());

const isPartner = (spec: RouteSpec) => schemesOf(spec).some((scheme) => scheme === 'apiKey' || scheme === 'apiKeyHeader');
const isAdmin = (spec: RouteSpec) => schemesOf(spec).includes('adminJwt');

/** What must be live only or test only, by what the operation serves (independent of what the table declares). */
const mustBeLiveOnly = (spec: RouteSpec) => isPartner(spec) && /^\/api\/v1\/event-pass(es|-programs)(\/|$)/.test(spec.path);
const mustBeTestOnly = (spec: RouteSpec) => /^\/api\/v1\/sandbox\//.test(spec.path);

const liveOnly = mobilityRouteTable.filter((spec) => mustBeLiveOnly(spec) || spec.mode === 'live-only');
const testOnly = mobilityRouteTable.filter((spec) => mustBeTestOnly(spec) || spec.mode === 'test-only');

interface World {
  owner: AdminIdentity;
  liveKey: string;
  testKey: string;
  params: Record<string, string>;
  rideId: string;
  deliveryId: string;
}
let world: World;

beforeAll(async () => {
  const live = await createPartnerKey(ctx);
  const test = await createPartnerKey(ctx, { owner: live.owner, mode: 'test' });
  const centre = randomCentre();
  const api = partnerApi(ctx, live.token);
  // Live objects for every path parameter: an operation that ignored the mode would change them.
  const { program, passes } = await programWithPasses(api, centre, 1);
  const ride = await api.post('/api/v1/rides', rideBody(centre)).expect(201);
  const delivery = await api.post('/api/v1/deliveries', deliveryBody(centre)).expect(201);
  world = {
    owner: live.owner,
    liveKey: live.token,
    testKey: test.token,
    params: { id: program.id, pass_id: passes[0]!.id, code: passes[0]!.code },
    rideId: ride.body.id,
    deliveryId: delivery.body.id,
  };
});

/** The operation's path with live objects of the partner's in it. */
function pathOf(spec: RouteSpec): string {
  return spec.path.replace(/\{(\w+)\}/g, (_all, name: string) => {
    if (name === 'id' && spec.path.startsWith('/api/v1/sandbox/rides/')) return world.rideId;
    if (name === 'id' && spec.path.startsWith('/api/v1/sandbox/deliveries/')) return world.deliveryId;
    return encodeURIComponent(world.params[name] ?? 'x');
  });
}

/** A body the operation would act on (a valid one where the test knows it), so a missing refusal shows as a change. */
function bodyOf(spec: RouteSpec): object {
  if (/\/event-pass-programs$/.test(spec.path)) return programBody(randomCentre());
  if (/\/event-pass-programs\/\{id\}\/passes$/.test(spec.path)) return { count: 1 };
  if (spec.path.startsWith('/api/v1/sandbox/rides/')) return { to: 'completed' };
  if (spec.path.startsWith('/api/v1/sandbox/deliveries/')) return { to: 'delivered' };
  return {};
}

/** The request as the partner (a key of `mode`) or, for an admin operation, as the owner's session in `mode`. */
function call(spec: RouteSpec, mode: 'live' | 'test') {
  const admin = isAdmin(spec);
  const role = spec.roles?.[0] ?? 'owner';
  const path = admin && mode === 'test' ? `${pathOf(spec)}?mode=test` : pathOf(spec);
  const auth = admin ? adminToken(ctx, { ...world.owner, role }) : mode === 'live' ? world.liveKey : world.testKey;
  const req = request(ctx.app)[spec.method](path).set('Authorization', `Bearer ${auth}`);
  return spec.method === 'get' ? req : req.send(bodyOf(spec));
}

/** A digest of every row of the partner's, table by table (a key's `last_used_at` aside: using a key stamps it). */
async function partnerRows(): Promise<Record<string, string>> {
  const columns = (await ctx.db('information_schema.columns')
    .select('table_name', 'column_name')
    .where({ table_schema: MOBILITY_SCHEMA })
    .whereIn('column_name', ['partner_id', 'organization_id'])) as { table_name: string; column_name: string }[];
  const digests: Record<string, string> = {};
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = (await ctx.db.raw(`select md5(coalesce(string_agg(r, ',' order by r), '')) as digest from (select (to_jsonb(t) - 'last_used_at')::text as r from ??.?? as t where ?? = ?) as rows`, [MOBILITY_SCHEMA, table, `t.${column}`, world.owner.org])) as { rows: { digest: string }[] };
    digests[`${table}.${column}`] = rows[0]!.digest;
  }
  return digests;
}

describe('operation modes in the mobility route table', () => {
  it('has operations of each mode to check', () => {
    expect(liveOnly.filter(mustBeLiveOnly).length).toBeGreaterThan(5);
    expect(testOnly.filter(mustBeTestOnly).length).toBeGreaterThan(1);
  });

  it('declares the mode of every kit-mounted operation that has one: event passes live only, the sandbox test only', () => {
    const wrong = mobilityRouteTable
      
      .filter((spec) => (mustBeLiveOnly(spec) && spec.mode !== 'live-only') || (mustBeTestOnly(spec) && spec.mode !== 'test-only'))
      .map((spec) => `${label(spec)} declares mode ${String(spec.mode)}`);
    expect(wrong).toEqual([]);
  });

  it('declares a mode only where the caller has one: a key, or an admin session', () => {
    const modeless = mobilityRouteTable.filter((spec) => spec.mode !== undefined && spec.mode !== 'live-and-test' && !isPartner(spec) && !isAdmin(spec)).map(label);
    expect(modeless).toEqual([]);
  });

  it.each(liveOnly.map((spec) => [label(spec), spec] as const))('%s: a test caller gets 403 test_mode_not_supported and nothing changes', async (_label, spec) => {
    const before = await partnerRows();
    const refused = await call(spec, 'test');
    expect([refused.status, refused.body.code]).toEqual([403, 'test_mode_not_supported']);
    expect(await partnerRows()).toEqual(before);
    // The refusal is the mode's: the live caller is not refused for it.
    expect((await call(spec, 'live')).body.code).not.toBe('test_mode_not_supported');
  });

  it.each(testOnly.map((spec) => [label(spec), spec] as const))('%s: a live key gets 403 livemode_key_not_allowed and nothing changes', async (_label, spec) => {
    const before = await partnerRows();
    const refused = await call(spec, 'live');
    expect([refused.status, refused.body.code]).toEqual([403, 'livemode_key_not_allowed']);
    expect(await partnerRows()).toEqual(before);
    expect((await call(spec, 'test')).body.code).not.toBe('livemode_key_not_allowed');
  });

});
