import { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow, idParam } from '@platform/service-kit';
import { latLngSchema } from '../../platform/geo';
import type { Dispatcher } from '../dispatch';
import type { FleetService } from '../fleet';
import { rideId, type RideService } from '../rides';
import type { JobTelemetry } from '../telemetry';
import { currentDriver } from './driver-auth';

export const availabilitySchema = z.object({ available: z.boolean() }).meta({ id: 'Availability', examples: [{ available: true }] });
export const locationSchema = latLngSchema
  .extend({
    heading: z.number().min(0).max(360).optional(),
    speed_kph: z.number().min(0).max(400).optional(),
  })
  .meta({ id: 'DriverLocation', examples: [{ lat: 6.4541, lng: 3.3947, heading: 90, speed_kph: 32 }] });

function offerId(value: unknown): string {
  return idParam('ofr', value, 'Offer not found');
}

const RIDE_MOVES = { arrived: 'arrive', start: 'start', complete: 'complete', cancel: 'cancel' } as const;

/** `/driver/v1` (mounted behind driver authentication). */
export function driverAppRoutes(fleet: FleetService, dispatcher: Dispatcher, rides: RideService, telemetry: Pick<JobTelemetry, 'positionReported'>): Router {
  const router = Router();

  router.post('/availability', async (req, res) => {
    const { available } = parseOrThrow(availabilitySchema, req.body);
    const driver = currentDriver(req);
    if (!available) await dispatcher.declineOpenOffers(driver.id); // going offline passes open offers on at once
    res.json(await fleet.setAvailability(driver, available));
  });

  router.post('/location', async (req, res) => {
    const report = parseOrThrow(locationSchema, req.body);
    const driver = currentDriver(req);
    const recorded = await fleet.reportLocation(driver, report);
    // The job's live streams and its (throttled, opt-in) location webhook; nothing at all for a driver without a job.
    await telemetry.positionReported(driver, recorded);
    res.json(recorded);
  });

  router.get('/offers', async (req, res) => {
    res.json({ data: await dispatcher.openOffers(currentDriver(req).id), has_more: false, next_cursor: null });
  });

  router.post('/offers/:id/accept', async (req, res) => {
    res.json(await dispatcher.accept(currentDriver(req).id, offerId(req.params.id)));
  });

  router.post('/offers/:id/decline', async (req, res) => {
    res.json(await dispatcher.decline(currentDriver(req).id, offerId(req.params.id)));
  });

  for (const [path, action] of Object.entries(RIDE_MOVES)) {
    router.post(`/rides/:id/${path}`, async (req, res) => {
      res.json(await rides.driverMove(currentDriver(req), rideId(req.params.id), action));
    });
  }

  return router;
}
