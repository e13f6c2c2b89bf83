import { z } from 'zod';
import { offerResponse } from '../dispatch/offers.schema';

/** What the driver-app feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const listDriverOffersResponse = z.object({
  data: z.array(offerResponse),
  has_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
});

export const declineOfferResponse = z.object({
  id: z.string(),
  status: z.literal('declined'),
});
