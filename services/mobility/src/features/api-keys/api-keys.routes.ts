import type { Router } from 'express';
import { apiKeyAdminRoutes as sharedAdminRoutes, createApiKeyBodySchema, type ApiKeyService } from '@platform/api-keys';
import { MOBILITY_SCOPES } from './api-keys';

/** The create body: every mobility key carries at least one of the mobility scopes. */
export const createKeySchema = createApiKeyBodySchema({ scopes: MOBILITY_SCOPES }).meta({
  id: 'NewMobilityApiKey',
  examples: [{ name: 'Production server', scopes: ['estimates:read', 'rides:write'] }],
});

/** `/admin/v1/api-keys`: any role may list; only owners create, rotate, revoke and delete. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  return sharedAdminRoutes(service, { createBody: createKeySchema });
}
