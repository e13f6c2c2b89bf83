import { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow, requireRole } from '@platform/service-kit';
import { TIERS } from '../../pricing';
import type { FleetService } from './fleet.service';

const text = z.string().trim().min(1).max(200);

export const registerDriverSchema = z.object({
  name: text,
  phone: z.string().trim().regex(/^\+?[0-9 ()-]{5,20}$/, 'must be a phone number'),
  kind: z.enum(['driver', 'courier']),
  tier: z.enum(TIERS),
  vehicle: z.object({ make: text, model: text, plate: text, color: text }),
}).meta({
  id: 'NewDriver',
  examples: [{ name: 'Musa Danjuma', phone: '+2348031112222', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LND-123-XY', color: 'Silver' } }],
});

/** `/admin/v1/drivers`: operators (and owners) manage the fleet. */
export function fleetAdminRoutes(fleet: FleetService): Router {
  const router = Router();
  router.post('/', requireRole('operator', 'owner'), async (req, res) => {
    const body = parseOrThrow(registerDriverSchema, req.body);
    res.status(201).json(await fleet.registerDriver(req.admin!.org, body));
  });
  return router;
}
