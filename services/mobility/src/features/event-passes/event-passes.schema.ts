import { z } from 'zod';
import { moneyResponse, tierResponse } from '../../platform/pricing';
import { rideStatusResponse } from '../rides/rides.schema';
import { dateTime, integer } from '../../platform/schema-types';
import { pageSchema } from '@platform/service-kit';

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
