import { z } from 'zod';
import { latLngSchema } from '../../platform/geo';
import { offerResponse } from '../dispatch/offers.schema';

/** What the driver-app feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

/** The bodies the driver app sends: going on or off line, and a location report. */
export const availabilitySchema = z.object({ available: z.boolean() }).meta({ id: 'Availability', examples: [{ available: true }] });
export const locationSchema = latLngSchema
  .extend({
    heading: z.number().min(0).max(360).optional(),
    speed_kph: z.number().min(0).max(400).optional(),
  })
  .meta({ id: 'DriverLocation', examples: [{ lat: 6.4541, lng: 3.3947, heading: 90, speed_kph: 32 }] });

export const listDriverOffersResponse = z.object({
  data: z.array(offerResponse),
  has_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
});

export const declineOfferResponse = z.object({
  id: z.string(),
  status: z.literal('declined'),
});
