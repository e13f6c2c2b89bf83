import type { Router } from 'express';
import { apiKeyAdminRoutes as sharedAdminRoutes, type ApiKeyService } from '@platform/api-keys';
import { MOBILITY_SCOPES } from './api-keys';

/** `/admin/v1/api-keys`: every key carries at least one of the six scopes. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  return sharedAdminRoutes(service, { scopes: MOBILITY_SCOPES });
}
