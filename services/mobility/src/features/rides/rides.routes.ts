import type { Request, RequestHandler, Router } from 'express';
import { z } from 'zod';
import { idParam } from '@platform/service-kit';
import { phoneSchema, placeSchema } from '../../platform/geo';
import { TIERS } from '../../platform/pricing';
import { accountOf, requireScope, type PartnerAccount } from '../api-keys';
import { jobListQuerySchema, jobReadRoutes, partnerJobRoutes } from '../jobs';
import { RIDE_STATUSES, isTerminal, type RideStatus } from './ride-status';
import type { RideService } from './rides.service';


export const createRideSchema = z.object({
  pickup: placeSchema,
  dropoff: placeSchema,
  tier: z.enum(TIERS),
  passenger: z.object({
    name: z.string().trim().min(1).max(200),
    phone: phoneSchema,
  }),
  estimate_id: z.string().max(100).optional().meta({ description: 'An estimate still valid (5 minutes) locks its fare.' }),
  event_pass: z.string().trim().min(1).max(40).optional().meta({ description: "An event pass code of the caller's program: covers the fare up to the program's cap." }),
}).meta({
  id: 'NewRide',
  examples: [
    {
      pickup: { lat: 6.4541, lng: 3.3947, address: '12 Marina Road, Lagos Island' },
      dropoff: { lat: 6.4281, lng: 3.4219, address: null },
      tier: 'economy',
      passenger: { name: 'Ada Obi', phone: '+2348012345678' },
    },
  ],
});

export const rideListQuerySchema = jobListQuerySchema({ id: 'RideListQuery', statuses: RIDE_STATUSES, idPrefix: 'ride' });

export function rideId(value: unknown): string {
  return idParam('ride', value, 'Ride not found');
}

/** `/api/v1/rides` (mounted behind API key authentication). */
export function rideRoutes(rides: RideService): Router {
  return partnerJobRoutes({
    requireRead: requireScope('rides:read'),
    requireWrite: requireScope('rides:write'),
    accountOf,
    createSchema: createRideSchema,
    parseId: rideId,
    create: rides.createRide,
    get: rides.getRide,
    listSchema: rideListQuerySchema,
    list: rides.listRides,
    cancel: rides.cancelByPartner,
  });
}

/** `/admin/v1/rides`: the organization's rides (list and one ride), for any admin role, in the mode `accountOf` reads. */
export function rideAdminRoutes(rides: RideService, accountOf: (req: Request) => PartnerAccount): Router {
  const anyRole: RequestHandler = (_req, _res, next) => next();
  return jobReadRoutes({ requireRead: anyRole, accountOf, parseId: rideId, get: rides.getRide, listSchema: rideListQuerySchema, list: rides.listRides });
}

/** What `GET /api/v1/rides/{id}/stream` (rides:read, telemetry's stream routes) needs of rides: the ride's Server-Sent Events until it ends. */
export function rideStreams(rides: RideService) {
  return { readScope: 'rides:read' as const, parseId: rideId, get: rides.getRide, isTerminal: (status: string) => isTerminal(status as RideStatus) };
}
