import { z } from 'zod';
import { integer, isoDate } from '../../platform/schema-types';

/** What the summary feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const mobilitySummaryDayResponse = z.object({
  date: isoDate(),
  rides: integer().min(0).meta({ description: 'Rides created that UTC day.' }),
  deliveries: integer().min(0).meta({ description: 'Deliveries created that UTC day.' }),
  webhook_attempts: integer().min(0).meta({ description: "HTTP attempts to the organization's endpoints that day." }),
  webhook_succeeded: integer().min(0).meta({ description: 'Of those, the ones answered 2xx.' }),
}).meta({ id: 'MobilitySummaryDay' });

export const mobilitySummaryResponse = z.object({
  mode: z.enum(['live', 'test']),
  endpoint_id: z.string().nullable(),
  days: z.array(mobilitySummaryDayResponse),
  totals: z.object({
    rides: integer().min(0),
    deliveries: integer().min(0),
    webhook_attempts: integer().min(0),
    webhook_succeeded: integer().min(0),
  }),
}).meta({ id: 'MobilitySummary' });
