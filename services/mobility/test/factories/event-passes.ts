import type { TestContext } from '../helpers/context';
import { createPartnerKey } from './auth';
import { offset, type Point } from './fleet';
import { partnerApi, rideBody } from './rides';

/** Every scope an organizer needs: its rides and its event passes. */
export const ORGANIZER_SCOPES = ['rides:write', 'rides:read', 'event_passes:write', 'event_passes:read', 'webhooks:manage'];

/** An organizer (a partner) with a key holding ORGANIZER_SCOPES. */
export async function organizer(ctx: TestContext) {
  const { token, owner } = await createPartnerKey(ctx, { scopes: ORGANIZER_SCOPES });
  return { api: partnerApi(ctx, token), token, owner };
}

export type Organizer = Awaited<ReturnType<typeof organizer>>;

/** A program body around `venue`, open for an hour either side of now. */
export function programBody(venue: Point, overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    name: 'Test Fest',
    venue: { ...venue, radius_m: 500, address: 'Main Hall' },
    valid_from: new Date(now - 3_600_000).toISOString(),
    valid_until: new Date(now + 3_600_000).toISOString(),
    applies_to: 'both',
    tiers: ['economy', 'comfort'],
    max_fare_per_ride: 100_000,
    budget: 1_000_000,
    rides_per_pass: 2,
    ...overrides,
  };
}

/** A ride from 3.6 km away to the venue (drop-off at the venue), with `code` as its pass. */
export function rideToVenue(venue: Point, code: string | undefined, overrides: Record<string, unknown> = {}) {
  return rideBody(offset(venue, -3000, -2000), { dropoff: { ...venue, address: 'Main Hall' }, ...(code ? { event_pass: code } : {}), ...overrides });
}

/** A ride from the venue to 3.6 km away (pickup at the venue). */
export function rideFromVenue(venue: Point, code: string | undefined, overrides: Record<string, unknown> = {}) {
  return rideBody(venue, { ...(code ? { event_pass: code } : {}), ...overrides });
}

type Api = ReturnType<typeof partnerApi>;

/** A program and `count` passes of it. */
export async function programWithPasses(api: Api, venue: Point, count: number, overrides: Record<string, unknown> = {}) {
  const program = (await api.post('/api/v1/event-pass-programs', programBody(venue, overrides)).expect(201)).body;
  const passes = (await api.post(`/api/v1/event-pass-programs/${program.id}/passes`, { count }).expect(201)).body.data as { id: string; code: string }[];
  return { program, passes };
}
