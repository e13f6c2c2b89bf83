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
  failing_endpoints: integer().min(0).meta({ description: "The organization's endpoints (of this mode; with `endpoint_id`, that one) failing now: every attempt since their last 2xx answer failed. Endpoints disabled after failing count too." }),
}).meta({ id: 'MobilitySummary' });

/** What the summary operation reads: its query. */
export const mobilitySummaryQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(90).default(30).meta({ description: 'How many UTC days, ending today.' }),
    mode: z.enum(['live', 'test']).default('live').meta({ description: '`test` counts test-mode data (made with `mk_test_…` keys).' }),
    endpoint_id: z.string().regex(/^whe_/, 'must be a webhook endpoint id').max(100).optional().meta({ description: 'Count the webhook attempts of this endpoint only.' }),
  })
  .strict()
  .meta({ id: 'MobilitySummaryQuery', examples: [{ days: 30, mode: 'live' }] });
