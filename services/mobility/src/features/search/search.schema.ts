import { z } from 'zod';
import { adminModeQuery } from '../partners';

/** What the search feature answers and reads (`.meta({ id })` names the component). */

export const MOBILITY_SEARCH_KINDS = ['ride', 'delivery', 'event_pass', 'webhook_endpoint'] as const;

export const mobilitySearchResultResponse = z.object({
  kind: z.enum(MOBILITY_SEARCH_KINDS),
  id: z.string(),
  label: z.string().meta({ description: 'What the dashboard shows: the id, or the pass code, or the endpoint URL.' }),
  detail: z.string().nullable().meta({ description: 'A second line: status, attendee, program.' }),
  program_id: z.string().nullable().optional().meta({ description: 'An event pass: its program (the page that lists it).' }),
}).meta({ id: 'MobilitySearchResult' });

export const mobilitySearchResponse = z.object({
  query: z.string(),
  data: z.array(mobilitySearchResultResponse).meta({ description: 'Exact matches first, then prefix matches; at most `limit` of each kind.' }),
}).meta({ id: 'MobilitySearchResults' });

export const mobilitySearchQuery = adminModeQuery
  .extend({
    q: z.string().trim().min(2, 'must be at least 2 characters').max(100).meta({ description: 'An id (`ride_…`, `dlv_…`, `whe_…`), an event-pass code or the start of one, or the start of a webhook URL.' }),
    limit: z.coerce.number().int().min(1).max(10).default(5).meta({ description: 'At most this many results of each kind.' }),
  })
  .strict()
  .meta({ id: 'MobilitySearchQuery', examples: [{ q: 'ride_01HZ', limit: 5 }] });
