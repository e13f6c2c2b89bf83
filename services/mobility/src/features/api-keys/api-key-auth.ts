import type { RequestHandler } from 'express';
import { principalOf, requireApiKey as sharedRequireApiKey, requireScope as sharedRequireScope, type ApiKeyService } from '@platform/api-keys';
import type { Scope } from './api-keys';

/** Public API authentication: `Authorization: Bearer <token>` first, else `X-API-KEY: <token>`. */
export function requireApiKey(service: ApiKeyService): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), { acceptXApiKeyHeader: true });
}

export function requireScope(scope: Scope): RequestHandler {
  return sharedRequireScope(scope);
}

/** The authenticated partner's id; only call behind `requireApiKey`. */
export function partnerIdOf(req: Parameters<typeof principalOf>[0]): string {
  return principalOf(req).organizationId;
}
