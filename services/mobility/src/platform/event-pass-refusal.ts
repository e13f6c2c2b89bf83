import { z } from 'zod';

/**
 * How a ride is refused for its `event_pass` (`POST /api/v1/rides` 422): the shape the rides' table declares and the
 * event passes' rules answer. It lives below both features (the rides' contract names it, the event passes answer it),
 * so neither imports the other for it.
 */
export const eventPassRefusalResponse = z.object({
  type: z.url(),
  title: z.string(),
  status: z.literal(422).meta({ type: 'integer' }),
  detail: z.string(),
  error: z.string(),
  code: z.enum(['event_pass_not_found', 'event_pass_revoked', 'event_pass_used_up', 'event_pass_program_closed', 'event_pass_outside_window', 'event_pass_venue_mismatch', 'event_pass_tier_not_allowed', 'event_pass_budget_exhausted']),
  details: z.array(z.object({
    path: z.literal('event_pass'),
    message: z.string(),
  })),
}).meta({ id: 'EventPassRefusal', description: 'A ride whose `event_pass` does not match its program (Problem Details); `code` names the rule that failed.' });
