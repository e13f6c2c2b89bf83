import { z } from 'zod';
import { tierResponse } from '../../platform/pricing';
import { personResponse, placeResponse } from '../../platform/geo';
import { assignedDriverResponse } from '../jobs/jobs.schema';
import { dateTime, integer } from '../../platform/schema-types';
import { RIDE_STATUSES } from './ride-status';
import { pageSchema } from '@platform/service-kit';

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
