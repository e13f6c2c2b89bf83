import { auditDeclarations } from '@platform/test-kit';
import { certificateRouteTable } from '../src/route-table';
import { CERTIFICATE_AUDIT_SNAPSHOTS } from '../src/features/audit/audit.recorder';

/*
 * Every admin change is audited: each admin (`adminJwt`) operation that is not a GET declares in the route table the
 * action its success records (`audit: 'object.verb'`), or `audit: { exempt: 'why' }` for a write that changes nothing stored
 * or is recorded elsewhere. The kit records what the entry declares (`mountOperations`), so the declaration is the whole promise.
 */

/** The action names recorded before the table declared them: dashboards and exports read them, so they are kept. */
const TODAYS_ACTIONS: Record<string, string> = {
  createApiKey: 'api_key.created',
  deleteApiKey: 'api_key.deleted',
  rotateApiKey: 'api_key.rotated',
  revokeApiKey: 'api_key.revoked',
  changeMemberRole: 'member.role_changed',
  removeMember: 'member.removed',
  createInvitation: 'member.invited',
  deleteInvitation: 'invitation.deleted',
};

const audit = auditDeclarations(certificateRouteTable, CERTIFICATE_AUDIT_SNAPSHOTS, TODAYS_ACTIONS);

describe('the audit declarations of the certificate route table', () => {
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

  it('declares actions as object.verb, and only on operations an admin calls', () => {
    expect(audit.misnamedActions).toEqual([]);
    expect(audit.declaredOffAdmin).toEqual([]);
  });

  it('records the issuing and revoking of certificates, which the rule list used to miss', () => {
    const actionOf = (id: string) => certificateRouteTable.find((spec) => spec.operationId === id)?.audit;
    expect(certificateRouteTable.filter((spec) => /^\/admin\/v1\/certificates(\/batch|\/\{id\}\/revoke)?$/.test(spec.path) && spec.method === 'post').map((spec) => spec.audit)).not.toContain(undefined);
    expect([actionOf('issueCertificate'), actionOf('revokeCertificate')].every((action) => typeof action === 'string')).toBe(true);
  });
});
