import { z } from 'zod';
import { latLngSchema } from '../../platform/geo';
import { moneyResponse, TIERS, tierResponse } from '../../platform/pricing';
import { rideStatusResponse } from '../rides/rides.schema';
import { dateTime, integer } from '../../platform/schema-types';
import { pageSchema } from '@platform/service-kit/pagination';
import { APPLIES_TO } from './event-pass-rules';

/** What the event-passes feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const eventPassProgramResponse = z.object({
  id: z.string().regex(/^evp_/),
  name: z.string(),
  status: z.enum(['open', 'closed']),
  venue: z.object({
    lat: z.number(),
    lng: z.number(),
    radius_m: integer(),
    address: z.string().nullable(),
  }),
  valid_from: dateTime(),
  valid_until: dateTime(),
  applies_to: z.enum(['to_venue', 'from_venue', 'both']),
  tiers: z.array(tierResponse),
  max_fare_per_ride: integer().meta({ description: 'Minor units.' }),
  budget: integer().meta({ description: 'Minor units.' }),
  currency: z.string().regex(/^[A-Z]{3}$/),
  rides_per_pass: integer(),
  usage: z.object({
    passes_issued: integer().min(0),
    rides_redeemed: integer().min(0).meta({ description: 'Rides covered that are under way or completed (released rides do not count).' }),
    amount_spent: integer().min(0).meta({ description: 'Covered amounts of completed rides.' }),
    amount_reserved: integer().min(0).meta({ description: 'Covered amounts of rides under way.' }),
    budget_left: integer().min(0).meta({ description: '`budget` − spent − reserved.' }),
  }),
  budget_exhausted_at: dateTime().nullable().meta({ description: 'When the budget first reached zero.' }),
  closed_at: dateTime().nullable(),
  created_at: dateTime(),
}).meta({ id: 'EventPassProgram' });

export const eventPassResponse = z.object({
  id: z.string().regex(/^evpass_/),
  program_id: z.string().regex(/^evp_/),
  code: z.string().regex(/^EVT-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{5}$/),
  status: z.enum(['active', 'revoked']),
  attendee: z.object({
    reference: z.string().nullable(),
    name: z.string().nullable(),
  }),
  rides_allowed: integer(),
  rides_used: integer().meta({ description: 'Rides under way or completed with this pass.' }),
  rides_left: integer().meta({ description: '0 once revoked.' }),
  revoked_at: dateTime().nullable(),
  created_at: dateTime(),
}).meta({ id: 'EventPass' });

export const eventPassRedemptionResponse = z.object({
  ride_id: z.string().regex(/^ride_/),
  ride_status: rideStatusResponse,
  program_id: z.string().regex(/^evp_/),
  pass: eventPassResponse,
  covered: moneyResponse,
  status: z.enum(['reserved', 'spent', 'released']),
}).meta({ id: 'EventPassRedemption', description: 'The data of `event_pass.redeemed` and `event_pass.released`.' });

export const listEventPassProgramsResponse = pageSchema(eventPassProgramResponse);

export const issueEventPassesResponse = z.object({
  data: z.array(eventPassResponse),
});

export const listEventPassesResponse = pageSchema(eventPassResponse);

/** What the event-passes operations read: their bodies and queries. */

/** Amounts are minor units; the cap keeps every sum of them exact in a JavaScript number. */
const minorUnits = z.number().int().min(1).max(1_000_000_000_000);

export const createProgramSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    venue: latLngSchema.extend({
      radius_m: z.number().int().min(50).max(50_000).meta({ description: 'Pickup or drop-off must be within this many metres of the venue.' }),
      address: z.string().trim().min(1).max(500).optional(),
    }),
    valid_from: z.iso.datetime({ offset: true }),
    valid_until: z.iso.datetime({ offset: true }),
    applies_to: z.enum(APPLIES_TO),
    tiers: z.array(z.enum(TIERS)).min(1).max(TIERS.length),
    max_fare_per_ride: minorUnits.meta({ description: 'The most one ride is covered for, in minor units.' }),
    budget: minorUnits.meta({ description: 'The total the program covers, in minor units.' }),
    rides_per_pass: z.number().int().min(1).max(100),
  })
  .refine((input) => new Date(input.valid_until).getTime() > new Date(input.valid_from).getTime(), { path: ['valid_until'], message: 'must be after valid_from' })
  .meta({
    id: 'NewEventPassProgram',
    examples: [
      {
        name: 'Lagos Tech Fest 2026',
        venue: { lat: 6.4281, lng: 3.4219, radius_m: 500, address: 'Eko Convention Centre, Victoria Island' },
        valid_from: '2026-01-01T00:00:00Z',
        valid_until: '2036-01-01T00:00:00Z',
        applies_to: 'both',
        tiers: ['economy', 'comfort'],
        max_fare_per_ride: 500000,
        budget: 50000000,
        rides_per_pass: 2,
      },
    ],
  });

const attendeeSchema = z.object({
  reference: z.string().trim().min(1).max(200).optional().meta({ description: "The organizer's own reference (ticket number, e-mail)." }),
  name: z.string().trim().min(1).max(200).optional(),
});

export const issuePassesSchema = z
  .object({
    count: z.number().int().min(1).max(1000).optional().meta({ description: 'Passes without attendee details; or send `attendees`.' }),
    attendees: z.array(attendeeSchema).min(1).max(1000).optional().meta({ description: 'One pass per attendee.' }),
  })
  .refine((input) => (input.count === undefined) !== (input.attendees === undefined), { path: ['count'], message: 'send either count or attendees' })
  .meta({ id: 'IssueEventPasses', examples: [{ attendees: [{ reference: 'TICKET-0001', name: 'Ada Obi' }, { reference: 'TICKET-0002' }] }] });

export const eventPassPageSchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  })
  .meta({ id: 'EventPassPageQuery', examples: [{ limit: 100 }] });
