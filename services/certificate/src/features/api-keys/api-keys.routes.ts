import type { RequestHandler, Router } from 'express';
import { apiKeyAdminRoutes as sharedAdminRoutes, createApiKeyBodySchema, requireApiKey as sharedRequireApiKey, type ApiKeyService } from '@platform/api-keys';

/** The create body: certificate keys carry no scopes, and unknown fields are refused. */
export const newApiKeySchema = createApiKeyBodySchema({ strict: true }).meta({
  id: 'NewApiKey',
  examples: [{ name: 'Production server' }, { name: 'Quarterly audit', expires_at: '2030-01-01T00:00:00Z' }],
});

/** `/admin/v1/api-keys`: owners manage their organization's keys; the token is shown on create and rotate only. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  return sharedAdminRoutes(service, { createBody: newApiKeySchema });
}

/** Public API authentication: `Authorization: Bearer <token>` only. */
export function requireApiKey(service: ApiKeyService): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), { acceptXApiKeyHeader: false });
}
