import { Router } from 'express';
import { z } from 'zod';
import { NotFoundError, isIdOf, parseOrThrow, requireRole, type AdminClaims } from '@platform/service-kit';
import { MOBILITY_SCOPES, type ApiKeyService } from './api-keys.service';

export const createKeySchema = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(MOBILITY_SCOPES)).min(1, 'at least one scope is required'),
}).meta({ id: 'NewMobilityApiKey', examples: [{ name: 'Production server', scopes: ['estimates:read', 'rides:write'] }] });

function admin(req: { admin?: AdminClaims }): AdminClaims {
  return req.admin!; // mounted behind requireAdmin
}

function keyId(value: string): string {
  if (!isIdOf('key', value)) throw new NotFoundError('API key not found');
  return value;
}

/** `/admin/v1/api-keys`: any role may list; only owners create, rotate, revoke and delete. */
export function apiKeyAdminRoutes(service: ApiKeyService): Router {
  const router = Router();
  const ownerOnly = requireRole('owner');

  router.post('/', ownerOnly, async (req, res) => {
    const body = parseOrThrow(createKeySchema, req.body);
    const { org, sub } = admin(req);
    res.status(201).json(await service.createKey({ organizationId: org, userId: sub, name: body.name, scopes: body.scopes }));
  });

  router.get('/', async (req, res) => {
    res.json({ data: await service.listKeys(admin(req).org), has_more: false, next_cursor: null });
  });

  router.post('/:id/rotate', ownerOnly, async (req, res) => {
    res.json(await service.rotateKey(admin(req).org, keyId(req.params.id as string)));
  });

  router.post('/:id/revoke', ownerOnly, async (req, res) => {
    res.json(await service.revokeKey(admin(req).org, keyId(req.params.id as string)));
  });

  router.delete('/:id', ownerOnly, async (req, res) => {
    await service.deleteKey(admin(req).org, keyId(req.params.id as string));
    res.status(204).end();
  });

  return router;
}
