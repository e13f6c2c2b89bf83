import type { RequestHandler } from 'express';
import { principalOf, requireScope } from '@platform/api-keys';
import { adminTokenSettings, requireAdmin } from '@platform/service-kit/admin-auth';
import type { OperationGuards } from '@platform/service-kit/operations';
import { requireApiKey } from './features/api-keys';
import { mobilityAuditRecorder } from './features/audit';
import { requireDriver } from './features/driver-app';
import { adminAccountOf, ensurePartnerFromClaims } from './features/partners';
import { streamSlotHook } from './features/telemetry';
import type { MobilityDeps, MobilityServices } from './services';

/**
 * How the mobility service guards what its route table declares: an API key (either header) holding the entry's
 * scope, the dashboard's admin token (its organization becomes a partner on first sight), a driver app token; the
 * caller's mode (a key's, or the admin query's `livemode`/`mode`) for live-only and test-only operations; the audit log;
 * and the stream slots the table's `cost: 'stream'` operations hold (per key, per organization, fair share of the process).
 */
export function mobilityGuards(deps: MobilityDeps, services: MobilityServices): OperationGuards {
  const { config, db, logger } = deps;
  const partnerKey = requireApiKey(services.apiKeys, services.organizationRequests);
  const apiKey = ({ scopes }: { scopes: readonly string[] }): RequestHandler[] => [partnerKey, ...scopes.map((scope) => requireScope(scope))];
  const admin = [requireAdmin(adminTokenSettings(config)), ensurePartnerFromClaims(services.partners)];
  const driver = requireDriver(services.fleet, { secret: config.JWT_SECRET, issuer: config.JWT_ISSUER }, services.driverSessions);
  const modeOf: OperationGuards['modeOf'] = (req) => {
    if (req.admin) return adminAccountOf(req).livemode ? 'live' : 'test';
    return principalOf(req).livemode ? 'live' : 'test';
  };
  return {
    schemes: {
      apiKey,
      apiKeyHeader: apiKey,
      adminJwt: () => admin,
      driverJwt: () => [driver],
    },
    modeOf,
    audit: mobilityAuditRecorder(db, config.DRIVER_SIGNIN_TRUST_PROXY_HOPS, logger, modeOf),
    costs: { stream: [streamSlotHook(services.telemetry.streamLimits)] },
  };
}
