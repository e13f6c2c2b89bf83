import type { Request } from 'express';
import { adminOf } from '@platform/service-kit/admin-auth';
import { idParam } from '@platform/service-kit/ids';
import type { ApiKeyService, ApiKeyWithToken } from './api-keys.service';

/** An id of the wrong shape is simply not found. */
function keyId(value: string): string {
  return idParam('key', value, 'API key not found');
}

/**
 * The create body as both services' tables parse it (`createApiKeyBodySchema`): a name, an optional expiry, and where
 * the service has them, scopes (at least one, of the service's) and a mode (`live` | `test`).
 */
export interface ApiKeyCreateBody {
  name: string;
  expires_at?: Date;
  scopes?: unknown;
  mode?: unknown;
}

export interface ApiKeyAdminHandlerOptions<Key> {
  /**
   * The key with its token as the service's table answers it (create and rotate): mobility's table promises the scopes
   * every mobility key carries. Without it, the shared `ApiKeyWithToken`.
   */
  present?: (key: ApiKeyWithToken) => Key;
}

/**
 * The admin API-key operations of a service's route table (`/admin/v1/api-keys`), one implementation for both services:
 * each maps its own operation ids to these (`createMobilityApiKey: handlers.create`). Who may call them (any role lists;
 * owners create, rotate, revoke and delete) and what is audited are the table entries'. The token is answered on create
 * and rotate only; an id of the wrong shape is 404.
 */
export function apiKeyAdminHandlers<Key = ApiKeyWithToken>(service: ApiKeyService, options: ApiKeyAdminHandlerOptions<Key> = {}) {
  const present = options.present ?? ((key: ApiKeyWithToken) => key as Key);
  return {
    create: async ({ body, req }: { body: ApiKeyCreateBody; req: Request }) => {
      const { org, sub } = adminOf(req);
      const livemode = body.mode === undefined ? undefined : body.mode === 'live';
      const scopes = body.scopes as string[] | undefined; // the service's scope enum, as the create schema parsed it
      const key = await service.create({ organizationId: org, userId: sub, name: body.name, scopes, expiresAt: body.expires_at, livemode });
      return { status: 201 as const, body: present(key) };
    },
    list: async ({ query, req }: { query: { limit: number; cursor?: string }; req: Request }) => ({
      status: 200 as const,
      body: await service.list(adminOf(req).org, { limit: query.limit, cursor: query.cursor }),
    }),
    rotate: async ({ params, body, req }: { params: { id: string }; body: { grace_seconds: number } | undefined; req: Request }) => {
      const id = keyId(params.id);
      return { status: 200 as const, body: present(await service.rotate(adminOf(req).org, id, body?.grace_seconds ?? 0)) };
    },
    revoke: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await service.revoke(adminOf(req).org, keyId(params.id)) }),
    remove: async ({ params, req }: { params: { id: string }; req: Request }) => {
      await service.remove(adminOf(req).org, keyId(params.id));
      return { status: 204 as const };
    },
  };
}
