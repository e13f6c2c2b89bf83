import { z } from 'zod';
import { dateTime, integer } from '../../platform/schema-types';

/** What the trip timeline answers: its response schemas (`.meta({ id })` names the component). */

export const timelineMessageResponse = z.object({
  id: z.string().meta({ description: 'The message (`whd_…`): one event sent to one endpoint, as the endpoint\'s message log lists it.' }),
  endpoint_id: z.string(),
  endpoint_url: z.string().nullable().meta({ description: 'Null when the endpoint was deleted since.' }),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: integer(),
  last_status_code: integer().nullable(),
  created_at: dateTime(),
}).meta({ id: 'TripTimelineMessage' });

export const timelineEventResponse = z.object({
  id: z.string().regex(/^evt_/),
  type: z.string().meta({ examples: ['delivery.failed'] }),
  created_at: dateTime(),
  messages: z.array(timelineMessageResponse).meta({ description: 'The messages that carry it to the endpoints subscribed to it; empty when none was.' }),
}).meta({ id: 'TripTimelineEvent' });

export const timelineEntryResponse = z.object({
  status: z.string().meta({ examples: ['pending', 'failed'] }),
  at: dateTime(),
  events: z.array(timelineEventResponse).meta({ description: 'The webhook events the change produced (and any other event about the trip until the next change).' }),
}).meta({ id: 'TripTimelineEntry' });

export const priceBreakdownResponse = z.object({
  base: integer(),
  distance: integer(),
  time: integer().meta({ description: 'Per minute at the tier\'s average speed; 0 for a delivery.' }),
  surge: integer().meta({ description: 'The platform has no surge pricing: 0.' }),
  adjustment: integer().meta({ description: 'The minimum fare\'s top-up and rounding (and, with an estimate, the difference its locked fare makes): the parts add up to `total`.' }),
  total: integer().meta({ description: 'The fare or fee charged, minor units.' }),
  currency: z.string().regex(/^[A-Z]{3}$/),
  distance_meters: integer().meta({ description: 'Road distance the price was reckoned on (straight line × 1.3).' }),
  duration_seconds: integer().nullable(),
}).meta({ id: 'PriceBreakdown', description: 'Minor units; base + distance + time + surge + adjustment = total.' });

export const tripOutcomeResponse = z.object({
  code: z.string().meta({ examples: ['no_couriers_available', 'cancelled_by_partner'] }),
  summary: z.string().meta({ description: 'What happened, in words.' }),
  next_step: z.string().meta({ description: 'What happens next, or what to do.' }),
}).meta({ id: 'TripOutcome' });

export const tripTimelineResponse = z.object({
  id: z.string(),
  status: z.string(),
  outcome: tripOutcomeResponse.nullable().meta({ description: 'Why a trip ended without being completed, and what next; null otherwise.' }),
  timeline: z.array(timelineEntryResponse).meta({ description: 'Every status so far, oldest first (the first at creation), within the event retention (30 days).' }),
  price: priceBreakdownResponse,
}).meta({ id: 'TripTimeline', description: "A ride's or delivery's history for the dashboard: status changes with the webhook events and messages each sent, why it ended, and its price in parts." });
