import { z } from 'zod';
import { placeResponse } from '../../platform/geo';
import { dateTime } from '../../platform/schema-types';

/** What the driver-app feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const offerResponse = z.object({
  id: z.string().regex(/^ofr_/),
  kind: z.enum(['ride', 'delivery']),
  ride_id: z.string().meta({ description: 'Present when `kind` is `ride`.' }).optional(),
  delivery_id: z.string().meta({ description: 'Present when `kind` is `delivery`.' }).optional(),
  pickup: placeResponse,
  dropoff: placeResponse,
  expires_at: dateTime(),
}).meta({ id: 'Offer' });

export const listDriverOffersResponse = z.object({
  data: z.array(offerResponse),
  has_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
});

export const declineOfferResponse = z.object({
  id: z.string(),
  status: z.literal('declined'),
});
