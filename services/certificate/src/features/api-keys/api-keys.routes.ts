import type { RequestHandler, Router } from 'express';
import { apiKeyAdminRoutes as sharedAdminRoutes, requireApiKey as sharedRequireApiKey, type ApiKeyService } from '@platform/api-keys';
import { newApiKeySchema } from './api-keys.schema';


/** `/admin/v1/api-keys`: owners manage their organization's keys; the token is shown on create and rotate only. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  return sharedAdminRoutes(service, { createBody: newApiKeySchema });
}

/** Public API authentication: `Authorization: Bearer <token>` only. */
export function requireApiKey(service: ApiKeyService): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), { acceptXApiKeyHeader: false });
}
