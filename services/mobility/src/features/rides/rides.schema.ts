import { z } from 'zod';
import { TIERS, tierResponse } from '../../platform/pricing';
import { personResponse, phoneSchema, placeResponse, placeSchema } from '../../platform/geo';
import { assignedDriverResponse, jobListQuerySchema } from '../jobs/jobs.schema';
import { dateTime, integer } from '../../platform/schema-types';
import { RIDE_STATUSES } from './ride-status';
import { pageSchema } from '@platform/service-kit/pagination';

/** What the rides feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const rideStatusResponse = z.enum(RIDE_STATUSES).meta({ id: 'RideStatus' });

export const vehicleLocationResponse = z.object({
  lat: z.number(),
  lng: z.number(),
  heading: z.number().nullable(),
  updated_at: dateTime(),
}).meta({ id: 'VehicleLocation' });

export const rideFareResponse = z.object({
  amount: integer().meta({ description: 'Minor units.' }),
  currency: z.string().regex(/^[A-Z]{3}$/),
  covered_by_pass: integer().min(0).meta({ description: 'With an event pass only: the part the program pays (the fare up to its cap).' }).optional(),
  rider_pays: integer().min(0).meta({ description: 'With an event pass only: `amount` − `covered_by_pass`.' }).optional(),
}).meta({ id: 'RideFare' });

export const rideResponse = z.object({
  id: z.string().regex(/^ride_/),
  status: rideStatusResponse,
  tier: tierResponse,
  pickup: placeResponse,
  dropoff: placeResponse,
  fare: rideFareResponse,
  passenger: personResponse,
  driver: assignedDriverResponse.nullable(),
  vehicle_location: vehicleLocationResponse.nullable().meta({ description: 'The live position while a driver is assigned and the ride has not ended.' }),
  cancelled_by: z.literal(['partner', 'driver', 'system', null]).meta({ type: ['string','null'] }),
  estimate_id: z.string().nullable().optional(),
  livemode: z.boolean().meta({ description: 'false for test-mode data (created with an `mk_test_` key): never dispatched to real drivers, moved only by the sandbox.' }),
  sequence: integer().meta({ description: 'Grows with every change of the ride; events carry it.' }).optional(),
  created_at: dateTime(),
  updated_at: dateTime(),
}).meta({ id: 'Ride' });

export const listRidesResponse = pageSchema(rideResponse);

/** What a partner sends: the request shapes of the rides operations (the description's request schemas). */

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
