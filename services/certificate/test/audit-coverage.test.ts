import type { RouteSpec } from '@platform/service-kit/route-table';
import { certificateRouteTable } from '../src/route-table';
import { CERTIFICATE_AUDIT_SNAPSHOTS } from '../src/features/audit/audit.recorder';

/**
 * Every admin change is audited: each admin (`adminJwt`) operation that is not a GET declares in the route table the
 * action its success records (`audit: 'object.verb'`), or `audit: { exempt: 'why' }` for a write that changes nothing stored
 * or is recorded elsewhere. The kit records what the entry declares (`mountOperations`), so the declaration is the whole promise.
 */
const schemesOf = (spec: RouteSpec) => (spec.security ?? []).flatMap((requirement) => Object.keys(requirement));
const label = (spec: RouteSpec) => `${spec.operationId} (${spec.method.toUpperCase()} ${spec.path})`;
const isAdmin = (spec: RouteSpec) => schemesOf(spec).includes('adminJwt');
const adminWrites = certificateRouteTable.filter((spec) => isAdmin(spec) && spec.method !== 'get');

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

/** The verbs of an action that changes or removes an existing object (its before and after are kept). */
const CHANGING_VERB = /\.(updated|deleted|removed|revoked|archived|closed|disabled|role_changed)$/;

describe('the audit declarations of the certificate route table', () => {
  it('has admin writes to check (the table is read, not an empty list)', () => {
    expect(adminWrites.length).toBeGreaterThan(10);
  });

  it('every admin write declares its audit action, or an exemption that says why', () => {
    expect(adminWrites.filter((spec) => spec.audit === undefined).map(label)).toEqual([]);
  });

  it('documents each exemption with a sentence', () => {
    const exempt = adminWrites.filter((spec) => typeof spec.audit === 'object');
    expect(exempt.filter((spec) => typeof spec.audit !== 'object' || spec.audit.exempt.trim().length < 20).map(label)).toEqual([]);
  });

  it('keeps before and after of every update and delete (a snapshot of its object per action), and no snapshot of an undeclared action', () => {
    const changing = adminWrites.filter((spec) => typeof spec.audit === 'string' && (spec.method === 'patch' || spec.method === 'delete' || CHANGING_VERB.test(spec.audit)));
    expect(changing.length).toBeGreaterThan(3);
    expect(changing.filter((spec) => !((spec.audit as string) in CERTIFICATE_AUDIT_SNAPSHOTS)).map(label)).toEqual([]);
    const declared = new Set(adminWrites.map((spec) => spec.audit));
    expect(Object.keys(CERTIFICATE_AUDIT_SNAPSHOTS).filter((action) => !declared.has(action))).toEqual([]);
  });

  it("keeps today's action names on the operations that recorded them", () => {
    expect(Object.keys(TODAYS_ACTIONS).filter((id) => !certificateRouteTable.some((spec) => spec.operationId === id))).toEqual([]);
    const renamed = certificateRouteTable
      .filter((spec) => spec.operationId in TODAYS_ACTIONS && spec.audit !== TODAYS_ACTIONS[spec.operationId])
      .map((spec) => `${label(spec)} declares ${String(spec.audit)}, recorded ${TODAYS_ACTIONS[spec.operationId]} before`);
    expect(renamed).toEqual([]);
  });

  it('declares actions as object.verb, and only on operations an admin calls', () => {
    const declared = certificateRouteTable.filter((spec) => typeof spec.audit === 'string');
    expect(declared.filter((spec) => !/^[a-z][a-z_]*\.[a-z][a-z_]*$/.test(spec.audit as string)).map(label)).toEqual([]);
    expect(certificateRouteTable.filter((spec) => spec.audit !== undefined && !isAdmin(spec)).map(label)).toEqual([]);
  });

  it('records the issuing and revoking of certificates, which the rule list used to miss', () => {
    const actionOf = (id: string) => certificateRouteTable.find((spec) => spec.operationId === id)?.audit;
    expect(certificateRouteTable.filter((spec) => /^\/admin\/v1\/certificates(\/batch|\/\{id\}\/revoke)?$/.test(spec.path) && spec.method === 'post').map((spec) => spec.audit)).not.toContain(undefined);
    expect([actionOf('issueCertificate'), actionOf('revokeCertificate')].every((action) => typeof action === 'string')).toBe(true);
  });
});
