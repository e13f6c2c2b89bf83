import { ApiError } from '@platform/service-kit/errors';
import { greatCircleMeters, type LatLng } from '../../platform/geo';

export const APPLIES_TO = ['to_venue', 'from_venue', 'both'] as const;
export type AppliesTo = (typeof APPLIES_TO)[number];

/** Why a ride may not use a pass: each refusal is a 422 with one of these codes. */
export type PassRefusal =
  | 'event_pass_not_found'
  | 'event_pass_revoked'
  | 'event_pass_used_up'
  | 'event_pass_program_closed'
  | 'event_pass_outside_window'
  | 'event_pass_venue_mismatch'
  | 'event_pass_tier_not_allowed'
  | 'event_pass_budget_exhausted';

export function passRefused(code: PassRefusal, message: string): ApiError {
  return new ApiError(422, code, message, { details: [{ path: 'event_pass', message }] });
}

export interface Venue extends LatLng {
  radiusMeters: number;
}

/** The venue rule: `to_venue` needs the drop-off inside the radius, `from_venue` the pickup, `both` either one. */
export function matchesVenue(venue: Venue, appliesTo: AppliesTo, ride: { pickup: LatLng; dropoff: LatLng }): boolean {
  const inside = (point: LatLng) => greatCircleMeters(venue, point) <= venue.radiusMeters;
  if (appliesTo === 'to_venue') return inside(ride.dropoff);
  if (appliesTo === 'from_venue') return inside(ride.pickup);
  return inside(ride.dropoff) || inside(ride.pickup);
}

/** The window rule: a ride may be requested from `valid_from` up to (not including) `valid_until`. */
export function insideWindow(window: { validFrom: Date; validUntil: Date }, at: Date): boolean {
  return at.getTime() >= window.validFrom.getTime() && at.getTime() < window.validUntil.getTime();
}

/** The amount a pass covers: the fare up to the per-ride cap, and never more than the budget has left. */
export function coveredAmount(fare: number, cap: number, budgetLeft: number): number {
  return Math.max(0, Math.min(fare, cap, budgetLeft));
}
