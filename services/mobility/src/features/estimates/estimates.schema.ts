import { z } from 'zod';
import { latLngSchema } from '../../platform/geo';
import { moneyResponse, tierResponse } from '../../platform/pricing';
import { dateTime, integer } from '../../platform/schema-types';

/** What the estimates feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const estimateResponse = z.object({
  id: z.string().regex(/^est_/),
  expires_at: dateTime(),
  distance_meters: integer().min(0),
  duration_seconds: integer().min(0).meta({ description: 'The trip at the economy speed (kept for compatibility; each tier has its own).' }),
  estimates: z.array(z.object({
    tier: tierResponse,
    display_name: z.string(),
    fare: moneyResponse,
    duration_seconds: integer().min(0).meta({ description: "The trip at this tier's average speed (the duration its fare uses)." }),
    pickup_eta_seconds: integer().nullable().meta({ description: 'Null when no driver of the tier is near. A test-mode key sees the sandbox driver only: always available, 180 s for every tier.' }),
    available: z.boolean(),
  })),
}).meta({ id: 'Estimate' });

/** What a partner sends: the request shape of an estimate (the description's request schema). */

export const estimateSchema = z
  .object({ pickup: latLngSchema, dropoff: latLngSchema })
  .meta({ id: 'EstimateRequest', examples: [{ pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4281, lng: 3.4219 } }] });
