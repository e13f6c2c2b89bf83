import { apiKeyAdminHandlers, type ApiKeyService, type ApiKeyWithToken } from '@platform/api-keys';
import type { Handlers } from '@platform/service-kit/operations';
import type { apiKeysContract } from './api-keys.contract';

/** A mobility key always carries its scopes (it is created with at least one): its create and rotate answers promise them. */
function withScopes(key: ApiKeyWithToken): ApiKeyWithToken & { scopes: string[] } {
  if (!key.scopes) throw new Error(`mobility API key ${key.id} has no scopes`);
  return { ...key, scopes: key.scopes };
}

/** `/admin/v1/api-keys`: the shared admin handlers under mobility's operation ids (any role lists; owners change). */
export function apiKeyHandlers(service: ApiKeyService): Handlers<typeof apiKeysContract> {
  const handlers = apiKeyAdminHandlers(service, { present: withScopes });
  return {
    createMobilityApiKey: handlers.create,
    listMobilityApiKeys: handlers.list,
    rotateMobilityApiKey: handlers.rotate,
    revokeMobilityApiKey: handlers.revoke,
    deleteMobilityApiKey: handlers.remove,
  };
}
