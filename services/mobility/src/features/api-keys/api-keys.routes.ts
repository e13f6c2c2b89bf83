import type { Router } from 'express';
import { apiKeyAdminRoutes as sharedAdminRoutes, createApiKeyBodySchema, type ApiKeyService } from '@platform/api-keys';
import { MOBILITY_SCOPES } from './api-keys';

/** The create body: every mobility key carries at least one of the mobility scopes, and is live (default) or test mode. */
export const createKeySchema = createApiKeyBodySchema({ scopes: MOBILITY_SCOPES, testMode: true }).meta({
  id: 'NewMobilityApiKey',
  examples: [{ name: 'Production server', scopes: ['estimates:read', 'rides:write'] }, { name: 'Staging (test mode)', scopes: ['rides:write', 'rides:read'], mode: 'test' }],
});

/** `/admin/v1/api-keys`: any role may list; only owners create, rotate, revoke and delete. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  return sharedAdminRoutes(service, { createBody: createKeySchema });
}
