import type { RequestHandler, Router } from 'express';
import { apiKeyAdminRoutes as sharedAdminRoutes, requireApiKey as sharedRequireApiKey, type ApiKeyService } from '@platform/api-keys';

/** `/admin/v1/api-keys`: keys carry no scopes; unknown fields in the create body are refused. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  return sharedAdminRoutes(service, { strictBody: true });
}

/** Public API authentication: `Authorization: Bearer <token>` only (contract §3). */
export function requireApiKey(service: ApiKeyService): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), { acceptXApiKeyHeader: false });
}
