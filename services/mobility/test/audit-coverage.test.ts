import type { RouteSpec } from '@platform/service-kit/route-table';
import { mobilityRouteTable } from '../src/route-table';
import { MOBILITY_AUDIT_SNAPSHOTS } from '../src/features/audit';
import { label, schemesOf } from './helpers/route-entries';

/**
 * Every admin change is audited: each admin (`adminJwt`) operation that is not a GET declares in the route table the
 * action its success records (`audit: 'object.verb'`), or `audit: { exempt: 'why' }` for a write that changes nothing
 * stored. The kit records what the entry declares (`mountOperations`), so the declaration is the whole promise.
 */
const isAdmin = (spec: RouteSpec) => schemesOf(spec).includes('adminJwt');
const adminWrites = mobilityRouteTable.filter((spec) => isAdmin(spec) && spec.method !== 'get');

/** Today's action names (MOBILITY_AUDIT_RULES with API_KEY_AUDIT_RULES, before the table declared them): dashboards and exports read them, so they are kept. */
const TODAYS_ACTIONS: Record<string, string> = {
  createMobilityApiKey: 'api_key.created',
  deleteMobilityApiKey: 'api_key.deleted',
  rotateMobilityApiKey: 'api_key.rotated',
  revokeMobilityApiKey: 'api_key.revoked',
  adminCreateWebhookEndpoint: 'webhook_endpoint.created',
  adminUpdateWebhookEndpoint: 'webhook_endpoint.updated',
  adminDeleteWebhookEndpoint: 'webhook_endpoint.deleted',
  adminRotateWebhookSecret: 'webhook_endpoint.secret_rotated',
  adminRecoverWebhookEvents: 'webhook_endpoint.recovered',
  registerDriver: 'driver.registered',
  issueDriverActivationCode: 'driver.activation_code_issued',
  disableDriver: 'driver.disabled',
};

/** The verbs of an action that changes or removes an existing object (its before and after are kept). */
const CHANGING_VERB = /\.(updated|deleted|removed|revoked|archived|closed|disabled|role_changed)$/;

describe('the audit declarations of the mobility route table', () => {
  it('has admin writes to check (the table is read, not an empty list)', () => {
    expect(adminWrites.length).toBeGreaterThan(10);
  });

  it('every admin write declares its audit action, or an exemption that says why', () => {
    const missing = adminWrites.filter((spec) => spec.audit === undefined).map(label);
    expect(missing).toEqual([]);
  });

  it('documents each exemption with a sentence', () => {
    const exempt = adminWrites.filter((spec) => typeof spec.audit === 'object');
    expect(exempt.filter((spec) => typeof spec.audit !== 'object' || spec.audit.exempt.trim().length < 20).map(label)).toEqual([]);
  });

  it('keeps before and after of every update and delete (a snapshot of its object per action), and no snapshot of an undeclared action', () => {
    const changing = adminWrites.filter((spec) => typeof spec.audit === 'string' && (spec.method === 'patch' || spec.method === 'delete' || CHANGING_VERB.test(spec.audit)));
    expect(changing.length).toBeGreaterThan(3);
    expect(changing.filter((spec) => !((spec.audit as string) in MOBILITY_AUDIT_SNAPSHOTS)).map(label)).toEqual([]);
    const declared = new Set(adminWrites.map((spec) => spec.audit));
    expect(Object.keys(MOBILITY_AUDIT_SNAPSHOTS).filter((action) => !declared.has(action))).toEqual([]);
  });

  it("keeps today's action names on the operations that recorded them", () => {
    const unknown = Object.keys(TODAYS_ACTIONS).filter((id) => !mobilityRouteTable.some((spec) => spec.operationId === id));
    expect(unknown).toEqual([]); // an operation renamed: say here which action it records
    const renamed = mobilityRouteTable
      .filter((spec) => spec.operationId in TODAYS_ACTIONS && spec.audit !== TODAYS_ACTIONS[spec.operationId])
      .map((spec) => `${label(spec)} declares ${String(spec.audit)}, recorded ${TODAYS_ACTIONS[spec.operationId]} before`);
    expect(renamed).toEqual([]);
  });

  it('declares actions as object.verb, and only on admin operations (anyone else has no admin to record)', () => {
    const declared = mobilityRouteTable.filter((spec) => typeof spec.audit === 'string');
    expect(declared.filter((spec) => !/^[a-z][a-z_]*\.[a-z][a-z_]*$/.test(spec.audit as string)).map(label)).toEqual([]);
    expect(mobilityRouteTable.filter((spec) => spec.audit !== undefined && !isAdmin(spec)).map(label)).toEqual([]);
  });

});
