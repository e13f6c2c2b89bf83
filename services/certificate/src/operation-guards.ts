import type { RequestHandler } from 'express';
import { adminOf, adminTokenSettings, requireAdmin } from '@platform/service-kit/admin-auth';
import type { OperationGuards } from '@platform/service-kit/operations';
import { requireApiKey } from './features/api-keys/api-keys';
import { certificateAuditRecorder } from './features/audit/audit.recorder';
import type { CertificateDeps, CertificateServices } from './services';

/**
 * How the certificate service guards what its route table declares: an organization's API key (`Authorization:
 * Bearer`), the dashboard's admin token (its organization and user appear on first sight; checked once per request),
 * or, where the entry also admits none, the admin token only when one is sent; and the audit log.
 */
export function certificateGuards(deps: CertificateDeps, services: CertificateServices): OperationGuards {
  const { config, db, logger } = deps;
  const verifyAdmin = requireAdmin(adminTokenSettings(config));
  const firstSight: RequestHandler = (req, _res, next) => {
    services.organizations.ensureWithUser(adminOf(req)).then(() => next(), next);
  };
  const whenSent: RequestHandler = (req, res, next) => (req.headers.authorization === undefined ? next() : verifyAdmin(req, res, next));
  return {
    schemes: {
      apiKey: () => [requireApiKey(services.apiKeys, services.organizationRequests)],
      adminJwt: ({ optional }) => (optional ? [whenSent] : [verifyAdmin, firstSight]),
    },
    audit: certificateAuditRecorder(db, config.TRUST_PROXY_HOPS, logger),
  };
}
