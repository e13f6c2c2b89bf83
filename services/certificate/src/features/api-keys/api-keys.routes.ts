import { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow, requireRole } from '@platform/service-kit';
import type { ApiKeysRepository } from './api-keys.repository';
import { apiKeysService } from './api-keys.service';

export const newApiKeySchema = z
  .object({ name: z.string().trim().min(1, 'is required').max(100) })
  .strict()
  .meta({ id: 'NewApiKey', examples: [{ name: 'Production server' }] });

/** `/admin/v1/api-keys`: owners manage their organization's keys; the token is shown on create and rotate only. */
export function apiKeyAdminRoutes(repository: ApiKeysRepository): Router {
  const service = apiKeysService(repository);
  const router = Router();
  const owner = requireRole('owner');

  router.post('/', owner, async (req, res) => {
    const { name } = parseOrThrow(newApiKeySchema, req.body ?? {});
    res.status(201).json(await service.create(req.admin!.org, req.admin!.sub, name));
  });
  router.get('/', async (req, res) => {
    res.json({ data: await service.list(req.admin!.org), has_more: false, next_cursor: null });
  });
  router.post('/:id/rotate', owner, async (req, res) => {
    res.json(await service.rotate(req.admin!.org, req.params.id as string));
  });
  router.post('/:id/revoke', owner, async (req, res) => {
    res.json(await service.revoke(req.admin!.org, req.params.id as string));
  });
  router.delete('/:id', owner, async (req, res) => {
    await service.remove(req.admin!.org, req.params.id as string);
    res.status(204).end();
  });
  return router;
}
