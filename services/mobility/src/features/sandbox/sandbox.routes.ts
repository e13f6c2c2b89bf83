import { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '@platform/service-kit';
import { accountOf, requireScope, requireTestKey } from '../api-keys';
import { DELIVERY_STATUSES, deliveryId } from '../deliveries';
import { RIDE_STATUSES, rideId } from '../rides';
import type { SandboxService } from './sandbox.service';

export const advanceRideSchema = z
  .object({
    to: z.enum(RIDE_STATUSES).meta({ description: 'The next status, or any status further along: every transition in between happens too, in order.' }),
  })
  .strict()
  .meta({
    id: 'SandboxRideAdvance',
    description: 'Test mode only. Moves a test ride to `to` (`accepted`, `arrived`, `in_progress`, `completed`, or `no_drivers_available` from `pending`).',
    examples: [{ to: 'completed' }],
  });

export const advanceDeliverySchema = z
  .object({
    to: z.enum(DELIVERY_STATUSES).meta({ description: 'The next status, or any status further along: every transition in between happens too, in order.' }),
    courier_progress: z.number().min(0).max(1).optional().meta({
      description:
        'With `to: picked_up` only: puts the sandbox courier this far along the route line (0 the pick-up, 1 the drop-off), as its tracking page shows. A delivery already `picked_up` may be advanced to `picked_up` again to move the courier on.',
    }),
  })
  .strict()
  .refine((body) => body.courier_progress === undefined || body.to === 'picked_up', { path: ['courier_progress'], message: 'only goes with to: picked_up' })
  .meta({
    id: 'SandboxDeliveryAdvance',
    description: 'Test mode only. Moves a test delivery to `to` (`courier_assigned`, `picked_up`, `delivered` without a PIN, or `failed`).',
    examples: [{ to: 'delivered' }, { to: 'picked_up', courier_progress: 0.5 }],
  });

/** `/api/v1/sandbox` (mounted behind API key authentication): test-mode keys only, with the job's write scope. */
export function sandboxRoutes(sandbox: SandboxService): Router {
  const router = Router();
  const testKey = requireTestKey();

  router.post('/rides/:id/advance', requireScope('rides:write'), testKey, async (req, res) => {
    const id = rideId(req.params.id);
    const { to } = parseOrThrow(advanceRideSchema, req.body ?? {});
    res.json(await sandbox.advanceRide(accountOf(req), id, to));
  });

  router.post('/deliveries/:id/advance', requireScope('deliveries:write'), testKey, async (req, res) => {
    const id = deliveryId(req.params.id);
    const { to, courier_progress: courierProgress } = parseOrThrow(advanceDeliverySchema, req.body ?? {});
    res.json(await sandbox.advanceDelivery(accountOf(req), id, to, courierProgress));
  });

  return router;
}
