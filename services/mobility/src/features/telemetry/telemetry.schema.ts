import { z } from 'zod';
import { dateTime, integer } from '../../platform/schema-types';

/** What the telemetry feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const jobLocationUpdateResponse = z.object({
  id: z.string().meta({ description: 'The ride or delivery id.' }),
  object: z.enum(['ride', 'delivery']),
  status: z.string().meta({ description: "The job's status when the position was reported (`RideStatus` or `DeliveryStatus`)." }),
  sequence: integer().min(1),
  position: z.object({
    lat: z.number(),
    lng: z.number(),
    heading: z.number().nullable(),
    speed_kph: z.number().nullable(),
  }),
  recorded_at: dateTime().meta({ description: 'When the service received the position.' }),
}).meta({ id: 'JobLocationUpdate', description: "The position of the driver (`ride.location_updated`) or courier (`delivery.courier_location_updated`) on an active\njob: sent at most once per job every 10 s, or as soon as the driver is 200 m or more (great-circle) from the\nposition of the job's previous location event, whichever comes first; the first report after assignment is sent at once.\n`sequence` is the job's event sequence (shared with its status events), so a receiver can drop an older one.\n" });

/** The location event of a ride: the position with the ride's id. */
export const rideLocationUpdateResponse = jobLocationUpdateResponse.extend({
  id: z.string().regex(/^ride_/),
  object: z.literal('ride'),
}).meta({ id: 'RideLocationUpdate' });

/** The location event of a delivery: the courier's position with the delivery's id. */
export const deliveryLocationUpdateResponse = jobLocationUpdateResponse.extend({
  id: z.string().regex(/^dlv_/),
  object: z.literal('delivery'),
}).meta({ id: 'DeliveryLocationUpdate' });
