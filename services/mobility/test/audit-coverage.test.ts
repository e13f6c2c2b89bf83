import { auditDeclarations } from '@platform/test-kit';
import { mobilityRouteTable } from '../src/route-table';
import { MOBILITY_AUDIT_SNAPSHOTS } from '../src/features/audit';

/*
 * Every admin change is audited: each admin (`adminJwt`) operation that is not a GET declares in the route table the
 * action its success records (`audit: 'object.verb'`), or `audit: { exempt: 'why' }` for a write that changes nothing
 * stored. The kit records what the entry declares (`mountOperations`), so the declaration is the whole promise.
 */

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

const audit = auditDeclarations(mobilityRouteTable, MOBILITY_AUDIT_SNAPSHOTS, TODAYS_ACTIONS);

describe('the audit declarations of the mobility route table', () => {
  it('has admin writes to check (the table is read, not an empty list)', () => {
    expect(audit.adminWrites.length).toBeGreaterThan(10);
  });

  it('every admin write declares its audit action, or an exemption that says why', () => {
    expect(audit.undeclared).toEqual([]);
  });

  it('documents each exemption with a sentence', () => {
    expect(audit.unexplainedExemptions).toEqual([]);
  });

  it('keeps before and after of every update and delete (a snapshot of its object per action), and no snapshot of an undeclared action', () => {
    expect(audit.changing.length).toBeGreaterThan(3);
    expect(audit.changingWithoutSnapshot).toEqual([]);
    expect(audit.snapshotsOfUndeclared).toEqual([]);
  });

  it("keeps today's action names on the operations that recorded them", () => {
    expect(audit.unknownTodaysOperations).toEqual([]); // an operation renamed: say here which action it records
    expect(audit.renamedActions).toEqual([]);
  });

  it('declares actions as object.verb, and only on admin operations (anyone else has no admin to record)', () => {
    expect(audit.misnamedActions).toEqual([]);
    expect(audit.declaredOffAdmin).toEqual([]);
  });

});
