import { Router } from 'express';
import { z } from 'zod';
import { NotFoundError, isIdOf, parseOrThrow, requireRole, type AdminClaims } from '@platform/service-kit';
import { MAX_GRACE_SECONDS, type ApiKeyService } from './api-keys.service';

export interface ApiKeyAdminOptions {
  /** The scopes a key may carry; when given, `scopes` is required on create (at least one). */
  scopes?: readonly [string, ...string[]];
  /** Refuse unknown fields in the create body (the certificate service always did). */
  strictBody?: boolean;
}

const name = z.string().trim().min(1, 'is required').max(100);
const expiresAt = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), 'must be in the future');
const rotateBody = z.object({ grace_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).default(0) }).strict();
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().refine((value) => isIdOf('key', value), 'is not a cursor from this list').optional(),
});

function createBodySchema({ scopes, strictBody }: ApiKeyAdminOptions) {
  const shape = {
    name,
    expires_at: expiresAt.optional(),
    ...(scopes ? { scopes: z.array(z.enum(scopes)).min(1, 'at least one scope is required') } : {}),
  };
  return strictBody ? z.object(shape).strict() : z.object(shape);
}

function admin(req: { admin?: AdminClaims }): AdminClaims {
  return req.admin!; // mounted behind requireAdmin
}

/** An id of the wrong shape is simply not found. */
function keyId(value: unknown): string {
  if (typeof value !== 'string' || !isIdOf('key', value)) throw new NotFoundError('API key not found');
  return value;
}

/** `/admin/v1/api-keys`: any role may list; only owners create, rotate, revoke and delete. The token is shown on create and rotate only. */
export function apiKeyAdminRoutes(service: ApiKeyService, options: ApiKeyAdminOptions = {}): Router {
  const createBody = createBodySchema(options);
  const router = Router();
  const ownerOnly = requireRole('owner');

  router.post('/', ownerOnly, async (req, res) => {
    const body = parseOrThrow(createBody, req.body ?? {}) as { name: string; expires_at?: Date; scopes?: string[] };
    const { org, sub } = admin(req);
    res.status(201).json(await service.create({ organizationId: org, userId: sub, name: body.name, scopes: body.scopes, expiresAt: body.expires_at }));
  });

  router.get('/', async (req, res) => {
    const query = parseOrThrow(listQuery, req.query);
    res.json(await service.list(admin(req).org, query));
  });

  router.post('/:id/rotate', ownerOnly, async (req, res) => {
    const id = keyId(req.params.id);
    const { grace_seconds } = parseOrThrow(rotateBody, req.body ?? {});
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
