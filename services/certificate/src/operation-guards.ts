import type { RequestHandler } from 'express';
import { adminOf, adminTokenSettings, requireAdmin } from '@platform/service-kit/admin-auth';
import { costHooks } from '@platform/service-kit/governor';
import type { OperationGuards } from '@platform/service-kit/operations';
import { requireApiKey } from './features/api-keys/api-keys';
import { certificateAuditRecorder } from './features/audit/audit.recorder';
import { adminLivemode } from './platform/admin-mode';
import type { CertificateDeps, CertificateServices } from './services';

/**
 * How the certificate service guards what its route table declares: an organization's API key (`Authorization:
 * Bearer`), the dashboard's admin token (its organization and user appear on first sight; checked once per request),
 * or, where the entry also admits none, the admin token only when one is sent; the caller's mode (a key's, `ck_test_…`
 * being test mode, or the admin query's `mode`/`livemode`) for live-only operations; the audit log; and the fair-share
 * governor of the cost classes the table declares (render, bulk, mail), keyed by organization and owning account.
 */
export function certificateGuards(deps: CertificateDeps, services: CertificateServices): OperationGuards {
  const { config, db, logger } = deps;
  const verifyAdmin = requireAdmin(adminTokenSettings(config));
  const firstSight = firstSightOnce(services);
  const whenSent: RequestHandler = (req, res, next) => (req.headers.authorization === undefined ? next() : verifyAdmin(req, res, next));
  const modeOf: OperationGuards['modeOf'] = (req) => {
    if (req.apiKey) return req.apiKey.livemode ? 'live' : 'test';
    if (req.admin) return adminLivemode(req) ? 'live' : 'test';
    return undefined;
  };
  return {
    schemes: {
      apiKey: () => [requireApiKey(services.apiKeys, services.organizationRequests)],
      adminJwt: ({ optional }) => (optional ? [whenSent] : [verifyAdmin, firstSight]),
    },
    modeOf,
    audit: certificateAuditRecorder(db, config.TRUST_PROXY_HOPS, logger, modeOf),
    // One governor per process (`buildServices`): background recipient mails spend the same mail budget as requests.
    costs: costHooks(services.governor, services.tenants),
  };
}

/** Organization and user pairs this process has made sure of: a later request of the same pair writes nothing. */
const SEEN_MAX = 10_000;

/**
 * The organization and user a dashboard token names come into being on first sight (`ensureWithUser`); each pair is
 * made sure of once per process (rows are never deleted), so the requests after it (a refused flood among them) cost
 * no transaction.
 */
function firstSightOnce(services: CertificateServices): RequestHandler {
  const seen = new Set<string>();
  return (req, _res, next) => {
    const claims = adminOf(req);
    const pair = `${claims.org}\u0000${claims.sub}`;
    if (seen.has(pair)) return next();
    services.organizations.ensureWithUser(claims).then(() => {
      if (seen.size >= SEEN_MAX) seen.clear();
      seen.add(pair);
      next();
    }, next);
  };
}
