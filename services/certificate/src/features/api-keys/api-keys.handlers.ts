import { idParam } from '@platform/service-kit/ids';
import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import type { ApiKeyService } from '@platform/api-keys';
import type { apiKeysRouteTable } from './api-keys.contract';

/** An id of the wrong shape is simply not found. */
const keyId = (value: string) => idParam('key', value, 'API key not found');

/** `/admin/v1/api-keys`: any role lists; owners create, rotate, revoke and delete. The token is shown on create and rotate only. */
export function apiKeysHandlers(service: ApiKeyService): Handlers<typeof apiKeysRouteTable> {
  return {
    createApiKey: async ({ body, req }) => {
      const { org, sub } = adminOf(req);
      return { status: 201, body: await service.create({ organizationId: org, userId: sub, name: body.name, expiresAt: body.expires_at, livemode: body.mode === 'live' }) };
    },
    listApiKeys: async ({ query, req }) => ({ status: 200, body: await service.list(adminOf(req).org, query) }),
    deleteApiKey: async ({ params, req }) => {
      await service.remove(adminOf(req).org, keyId(params.id));
      return { status: 204 };
    },
    rotateApiKey: async ({ params, body, req }) => {
      const id = keyId(params.id);
      // The body may be left out (`bodyOptional`): the replaced token then stops at once.
      const graceSeconds = (body as typeof body | undefined)?.grace_seconds ?? 0;
      return { status: 200, body: await service.rotate(adminOf(req).org, id, graceSeconds) };
    },
    revokeApiKey: async ({ params, req }) => ({ status: 200, body: await service.revoke(adminOf(req).org, keyId(params.id)) }),
  };
}
