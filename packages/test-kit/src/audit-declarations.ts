import type { RouteSpec } from '@platform/service-kit/route-table';

/** The verbs of an action that changes or removes an existing object (its before and after are kept). */
const CHANGING_VERB = /\.(updated|deleted|removed|revoked|archived|closed|disabled|role_changed)$/;

/** The security schemes an operation names (`apiKey`, `adminJwt`, …). */
const schemesOf = (spec: RouteSpec) => (spec.security ?? []).flatMap((requirement) => Object.keys(requirement));
/** An operation as a test names it: `operationId (METHOD /path)`. */
const label = (spec: RouteSpec) => `${spec.operationId} (${spec.method.toUpperCase()} ${spec.path})`;
const isAdmin = (spec: RouteSpec) => schemesOf(spec).includes('adminJwt');

/**
 * What a service's route table says about its audit promise: every admin (`adminJwt`) operation that is not a GET
 * declares the action its success records (`audit: 'object.verb'`) or `audit: { exempt: 'why' }`. Each list names the
 * operations that break one rule (empty when none does); each service's audit-coverage test asserts them.
 * `snapshots` is the service's before/after snapshot per action; `todaysActions` the action names recorded before the
 * table declared them (operation id → action), which dashboards and exports read.
 */
export function auditDeclarations(table: readonly RouteSpec[], snapshots: Record<string, unknown>, todaysActions: Record<string, string>) {
  const adminWrites = table.filter((spec) => isAdmin(spec) && spec.method !== 'get');
  const changing = adminWrites.filter((spec) => typeof spec.audit === 'string' && (spec.method === 'patch' || spec.method === 'delete' || CHANGING_VERB.test(spec.audit)));
  const declared = new Set(adminWrites.map((spec) => spec.audit));
  return {
    adminWrites,
    /** Admin writes that declare neither an action nor an exemption. */
    undeclared: adminWrites.filter((spec) => spec.audit === undefined).map(label),
    /** Exemptions without a sentence saying why (at least 20 characters). */
    unexplainedExemptions: adminWrites.filter((spec) => typeof spec.audit === 'object' && spec.audit.exempt.trim().length < 20).map(label),
    /** Updates and deletes (by method or by the action's verb). */
    changing,
    /** Updates and deletes with no before/after snapshot for their action. */
    changingWithoutSnapshot: changing.filter((spec) => !((spec.audit as string) in snapshots)).map(label),
    /** Snapshots of actions no admin write declares. */
    snapshotsOfUndeclared: Object.keys(snapshots).filter((action) => !declared.has(action)),
    /** Operation ids of today's actions that the table no longer has. */
    unknownTodaysOperations: Object.keys(todaysActions).filter((id) => !table.some((spec) => spec.operationId === id)),
    /** Operations that now declare another action than the one they recorded before. */
    renamedActions: table
      .filter((spec) => spec.operationId in todaysActions && spec.audit !== todaysActions[spec.operationId])
      .map((spec) => `${label(spec)} declares ${String(spec.audit)}, recorded ${todaysActions[spec.operationId]} before`),
    /** Actions not spelled `object.verb`. */
    misnamedActions: table.filter((spec) => typeof spec.audit === 'string' && !/^[a-z][a-z_]*\.[a-z][a-z_]*$/.test(spec.audit)).map(label),
    /** Audit declarations on operations no admin calls. */
    declaredOffAdmin: table.filter((spec) => spec.audit !== undefined && !isAdmin(spec)).map(label),
  };
}
