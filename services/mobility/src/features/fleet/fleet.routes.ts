import { Router } from 'express';
import { z } from 'zod';
import { adminOf, isIdOf, parseOrThrow, requireRole } from '@platform/service-kit';
import { phoneSchema } from '../../platform/geo';
import { TIERS } from '../../platform/pricing';
import type { FleetService, OnDriverRegistered } from './fleet.service';

const text = z.string().trim().min(1).max(200);

export const registerDriverSchema = z.object({
  name: text,
  phone: phoneSchema,
  kind: z.enum(['driver', 'courier']),
  tier: z.enum(TIERS),
  vehicle: z.object({ make: text, model: text, plate: text, color: text }),
}).meta({
  id: 'NewDriver',
  examples: [{ name: 'Musa Danjuma', phone: '+2348031112222', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LND-123-XY', color: 'Silver' } }],
});

export const driverListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: z.string().refine((value) => isIdOf('drv', value), 'is not a cursor from this list').optional(),
  })
  .meta({ id: 'DriverListQuery', examples: [{ limit: 20 }] });

/** Who manages the fleet: operators and owners of the organization, and platform operators (whose drivers serve every partner). */
export const fleetManager = requireRole('operator', 'owner', 'platform_operator');

/** `/admin/v1/drivers`: the organization's drivers and couriers. */
export function fleetAdminRoutes(fleet: FleetService, passOnOpenOffers: (driverId: string) => Promise<void>, onRegistered?: OnDriverRegistered): Router {
  const router = Router();
  router.post('/', fleetManager, async (req, res) => {
    const body = parseOrThrow(registerDriverSchema, req.body);
    // The answer carries the driver's first activation code (issued in the same transaction): no-store.
    res.status(201).set('Cache-Control', 'no-store').json(await fleet.registerDriver(adminOf(req), body, onRegistered));
  });

  router.get('/', fleetManager, async (req, res) => {
    res.json(await fleet.listDrivers(adminOf(req).org, parseOrThrow(driverListQuerySchema, req.query)));
  });

  router.get('/:id', fleetManager, async (req, res) => {
    res.json(await fleet.getDriver(adminOf(req).org, req.params.id as string));
  });

  router.post('/:id/disable', fleetManager, async (req, res) => {
    const driver = await fleet.disableDriver(adminOf(req).org, req.params.id as string);
    await passOnOpenOffers(driver.id); // an offer the driver still holds goes to the next nearest driver at once
    res.json(driver);
  });
  return router;
}
