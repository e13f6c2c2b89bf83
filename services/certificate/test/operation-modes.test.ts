import request from 'supertest';
import type { RouteSpec } from '@platform/service-kit/route-table';
import { CERTIFICATE_SCHEMA } from '../src/config';
import { certificateRouteTable } from '../src/route-table';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, issueCertificate, newOrg, type TestOrg } from './factories/admin';

/**
 * The data an operation serves: plans, credit packs, checkouts and payments are real money and have no test mode
 * (`mode: 'live-only'`: an admin session with `?mode=test` or `?livemode=false` gets 403 `test_mode_not_supported`).
 * Refused means refused before anything happens: the organization's rows (every table with its `organization_id`, the
 * audit log too) read the same after the request.
 */
let ctx: TestContext;
let org: TestOrg;
beforeAll(async () => {
  ctx = createTestContext();
  org = newOrg(ctx);
  await createApiKey(ctx, org);
  await issueCertificate(ctx, org);
});
afterAll(() => ctx.close());

const schemesOf = (spec: RouteSpec) => (spec.security ?? []).flatMap((requirement) => Object.keys(requirement));
const label = (spec: RouteSpec) => `${spec.operationId} (${spec.method.toUpperCase()} ${spec.path})`;
const isAdmin = (spec: RouteSpec) => schemesOf(spec).includes('adminJwt');
const isPartner = (spec: RouteSpec) => schemesOf(spec).includes('apiKey');

/** What must be live only, by what the operation serves (independent of what the table declares): money. */
const mustBeLiveOnly = (spec: RouteSpec) => isAdmin(spec) && /^\/admin\/v1\/(plans|subscriptions\/checkout|credit-packs|credits\/top-ups|payments|payment-gateways)(\/|$)/.test(spec.path);

const liveOnly = certificateRouteTable.filter((spec) => mustBeLiveOnly(spec) || spec.mode === 'live-only');

/** The request as the owner's session in `mode` (`?mode=test` for test), with an empty body for a write. */
function call(spec: RouteSpec, mode: 'live' | 'test', query = 'mode=test') {
  const path = spec.path.replace(/\{(\w+)\}/g, 'x');
  const req = request(ctx.app)[spec.method](mode === 'test' ? `${path}?${query}` : path).set('Authorization', org.admin(spec.roles?.[0] ?? 'owner'));
  return spec.method === 'get' ? req : req.send({ plan: 'pro', pack: 'small', gateway: 'gateway-a' });
}

/** A digest of every row of the organization's, table by table (a key's `last_used_at` aside). */
async function organizationRows(): Promise<Record<string, string>> {
  const tables = (await ctx.db('information_schema.columns').where({ table_schema: CERTIFICATE_SCHEMA, column_name: 'organization_id' }).pluck('table_name')) as string[];
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = (await ctx.db.raw(`select md5(coalesce(string_agg(r, ',' order by r), '')) as digest from (select (to_jsonb(t) - 'last_used_at')::text as r from ??.?? as t where t.organization_id = ?) as rows`, [CERTIFICATE_SCHEMA, table, org.org])) as { rows: { digest: string }[] };
    digests[table] = rows[0]!.digest;
  }
  digests.organizations = JSON.stringify(await ctx.db('organizations').where({ id: org.org }).first());
  return digests;
}

describe('operation modes in the certificate route table', () => {
  it('has live-only operations to check', () => {
    expect(liveOnly.filter(mustBeLiveOnly).length).toBeGreaterThanOrEqual(7);
  });

  it('declares plans, credit packs, checkouts and payments live only', () => {
    expect(certificateRouteTable.filter((spec) => mustBeLiveOnly(spec) && spec.mode !== 'live-only').map((spec) => `${label(spec)} declares mode ${String(spec.mode)}`)).toEqual([]);
  });

  it('declares a mode only where the caller has one (a key or an admin session), and no test-only operation', () => {
    expect(certificateRouteTable.filter((spec) => spec.mode !== undefined && spec.mode !== 'live-and-test' && !isPartner(spec) && !isAdmin(spec)).map(label)).toEqual([]);
    expect(certificateRouteTable.filter((spec) => spec.mode === 'test-only').map(label)).toEqual([]);
  });

  it('keeps the partner API usable with a test key: no operation a key calls is live only', () => {
    expect(certificateRouteTable.filter((spec) => isPartner(spec) && spec.mode === 'live-only').map(label)).toEqual([]);
  });

  it.each(liveOnly.map((spec) => [label(spec), spec] as const))('%s: a test session gets 403 test_mode_not_supported and nothing changes', async (_label, spec) => {
    const before = await organizationRows();
    for (const query of ['mode=test', 'livemode=false']) {
      const refused = await call(spec, 'test', query);
      expect([refused.status, refused.body.code]).toEqual([403, 'test_mode_not_supported']);
    }
    expect(await organizationRows()).toEqual(before);
    // The refusal is the mode's: the live session is not refused for it.
    expect((await call(spec, 'live')).body.code).not.toBe('test_mode_not_supported');
  });
});
