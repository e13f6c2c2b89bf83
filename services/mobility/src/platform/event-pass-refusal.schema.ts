import { z } from 'zod';

/**
 * The 422 a ride request gets when its `event_pass` breaks a rule of its program: rides answer it, event passes name
 * the rules. A shape both features use, so it lives on the floor below them (features form no circle).
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
