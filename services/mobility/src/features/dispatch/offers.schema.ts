import { z } from 'zod';
import { placeResponse } from '../../platform/geo';
import { dateTime } from '../../platform/schema-types';

/** An offer as the driver app is shown it (`toOfferView`): the dispatch feature's answer, typed by this schema. */
export const offerResponse = z.object({
  id: z.string().regex(/^ofr_/),
  kind: z.enum(['ride', 'delivery']),
  ride_id: z.string().meta({ description: 'Present when `kind` is `ride`.' }).optional(),
  delivery_id: z.string().meta({ description: 'Present when `kind` is `delivery`.' }).optional(),
  pickup: placeResponse,
  dropoff: placeResponse,
  expires_at: dateTime(),
}).meta({ id: 'Offer' });
