import { Router } from 'express';
import { z } from 'zod';
import { idParam } from '@platform/service-kit/ids';
import { pageQuerySchema } from '@platform/service-kit/pagination';
import { parseOrThrow } from '@platform/service-kit/validation';
import { requireRole, type AdminClaims } from '@platform/service-kit/admin-auth';
import { MAX_GRACE_SECONDS, type ApiKeyService } from './api-keys.service';

export interface ApiKeyRequestSchemas {
  /** The create body; each service names it (`.meta({ id })`) for its own description. */
  createBody: z.ZodType;
}

const name = z.string().trim().min(1, 'is required').max(100);
const expiresAt = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), 'must be in the future');

/** The rotate body, the same in both services (one component, `RotateApiKey`). */
export const rotateApiKeySchema = z
  .object({ grace_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).default(0) })
  .strict()
  .meta({
    id: 'RotateApiKey',
    description: 'How long the replaced token keeps working (0, the default, refuses it at once; at most 86,400 s).',
    examples: [{ grace_seconds: 3600 }],
  });

/** The list query, the same in both services (`x-query-schema: ApiKeyListQuery`). */
export const apiKeyListQuerySchema = pageQuerySchema({ id: 'ApiKeyListQuery', defaultLimit: 50, idPrefix: 'key' });

/**
 * The create body: a name, an optional expiry and, where the service has them, the scopes (at least one).
 * `strict` refuses unknown fields (the certificate service always did).
 */
export function createApiKeyBodySchema({ scopes, strict, testMode }: { scopes?: readonly [string, ...string[]]; strict?: boolean; testMode?: boolean | { description: string } } = {}) {
  const modeDescription =
    typeof testMode === 'object' ? testMode.description : '`test` creates a test-mode key (`mk_test_…`): everything it creates is test data, never dispatched to real drivers.';
  const shape = {
    name,
    expires_at: expiresAt.optional(),
    ...(scopes ? { scopes: z.array(z.enum(scopes)).min(1, 'at least one scope is required') } : {}),
    ...(testMode
      ? {
          mode: z
            .enum(['live', 'test'])
            .default('live')
            .meta({ description: modeDescription }),
        }
      : {}),
  };
  return strict ? z.object(shape).strict() : z.object(shape);
}

function admin(req: { admin?: AdminClaims }): AdminClaims {
  return req.admin!; // mounted behind requireAdmin
}

/** An id of the wrong shape is simply not found. */
function keyId(value: unknown): string {
  return idParam('key', value, 'API key not found');
}

/** `/admin/v1/api-keys`: any role may list; only owners create, rotate, revoke and delete. The token is shown on create and rotate only. */
export function apiKeyAdminRoutes(service: ApiKeyService, { createBody }: ApiKeyRequestSchemas): Router {
  const router = Router();
  const ownerOnly = requireRole('owner');

  router.post('/', ownerOnly, async (req, res) => {
    const body = parseOrThrow(createBody, req.body ?? {}) as { name: string; expires_at?: Date; scopes?: string[]; mode?: 'live' | 'test' };
    const { org, sub } = admin(req);
    const livemode = body.mode === undefined ? undefined : body.mode === 'live';
    res.status(201).json(await service.create({ organizationId: org, userId: sub, name: body.name, scopes: body.scopes, expiresAt: body.expires_at, livemode }));
  });

  router.get('/', async (req, res) => {
    const query = parseOrThrow(apiKeyListQuerySchema, req.query);
    res.json(await service.list(admin(req).org, query));
  });

  router.post('/:id/rotate', ownerOnly, async (req, res) => {
    const id = keyId(req.params.id);
    const { grace_seconds } = parseOrThrow(rotateApiKeySchema, req.body ?? {});
    res.json(await service.rotate(admin(req).org, id, grace_seconds));
  });

  router.post('/:id/revoke', ownerOnly, async (req, res) => {
    res.json(await service.revoke(admin(req).org, keyId(req.params.id)));
  });

  router.delete('/:id', ownerOnly, async (req, res) => {
    await service.remove(admin(req).org, keyId(req.params.id));
    res.status(204).end();
  });

  return router;
}
