import { Router, type Request } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '@platform/service-kit';
import type { EventsService } from './events.service';
import type { PartnerAccount } from '../api-keys';

export const eventListQuerySchema = z
  .object({
    type: z.string().trim().min(1).max(100).optional().meta({ description: 'Only events of this type, e.g. `ride.completed`.' }),
    object_id: z.string().trim().min(1).max(100).optional().meta({ description: 'Only events about this ride, delivery, program or endpoint.' }),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  })
  .meta({ id: 'EventListQuery', examples: [{ type: 'ride.completed', limit: 20 }] });

/** `/api/v1/events`: mounted behind API-key authentication with the `webhooks:manage` scope. */
export function eventRoutes(service: EventsService, accountOf: (req: Request) => PartnerAccount): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const query = parseOrThrow(eventListQuerySchema, req.query);
    const { partnerId, livemode } = accountOf(req);
    res.json(await service.list({ partnerId, livemode, type: query.type, objectId: query.object_id, limit: query.limit, cursor: query.cursor }));
  });
  return router;
}
