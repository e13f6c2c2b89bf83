import type { PassRow, ProgramRow, ProgramUsage, RedemptionRow } from './event-passes.repository';
import type { z } from 'zod';
import type { RideStatus } from '../rides';
import type { eventPassProgramResponse, eventPassRedemptionResponse, eventPassResponse } from './event-passes.schema';

/** A program as GET /api/v1/event-pass-programs/{id} shows it, with its usage. */
export function presentProgram(program: ProgramRow, usage: ProgramUsage): z.input<typeof eventPassProgramResponse> {
  return {
    id: program.id,
    name: program.name,
    status: program.status,
    venue: { lat: program.venue_lat, lng: program.venue_lng, radius_m: program.venue_radius_m, address: program.venue_address },
    valid_from: program.valid_from.toISOString(),
    valid_until: program.valid_until.toISOString(),
    applies_to: program.applies_to,
    tiers: program.tiers,
    max_fare_per_ride: program.max_fare_per_ride,
    budget: program.budget,
    currency: program.currency,
    rides_per_pass: program.rides_per_pass,
    usage: {
      passes_issued: usage.passes_issued,
      rides_redeemed: usage.rides_redeemed,
      amount_spent: program.budget_spent,
      amount_reserved: program.budget_reserved,
      budget_left: program.budget - program.budget_spent - program.budget_reserved,
    },
    budget_exhausted_at: program.budget_exhausted_at?.toISOString() ?? null,
    closed_at: program.closed_at?.toISOString() ?? null,
    created_at: program.created_at.toISOString(),
  };
}

export type ProgramView = ReturnType<typeof presentProgram>;

/** A pass as its organizer sees it: the code (retrievable), the attendee, and its rides. */
export function presentPass(pass: PassRow): z.input<typeof eventPassResponse> {
  return {
    id: pass.id,
    program_id: pass.program_id,
    code: pass.code,
    status: pass.status,
    attendee: { reference: pass.attendee_reference, name: pass.attendee_name },
    rides_allowed: pass.rides_allowed,
    rides_used: pass.rides_used,
    rides_left: pass.status === 'active' ? pass.rides_allowed - pass.rides_used : 0,
    revoked_at: pass.revoked_at?.toISOString() ?? null,
    created_at: pass.created_at.toISOString(),
  };
}

export type PassView = ReturnType<typeof presentPass>;

/** The data of `event_pass.redeemed` and `event_pass.released`: which ride, which pass, how much of the budget. */
export function presentRedemption(redemption: RedemptionRow, pass: PassRow, rideStatus: RideStatus): z.input<typeof eventPassRedemptionResponse> {
  return {
    ride_id: redemption.ride_id,
    ride_status: rideStatus,
    program_id: redemption.program_id,
    pass: presentPass(pass),
    covered: { amount: redemption.amount, currency: redemption.currency },
    status: redemption.status,
  };
}
